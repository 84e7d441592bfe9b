#include "trace/TraceJsonStream.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <vector>

#include "trace/TraceReadError.h"
#include "trace/TraceRules.h"

namespace ts {

namespace {

using json = nlohmann::json;

// Integer microseconds as nanoseconds (wrapping on absurd values, as
// microsTokenToNs does).
int64_t microsToNs(int64_t us) {
    return static_cast<int64_t>(static_cast<uint64_t>(us) * 1000u);
}

// Builds one JSON value from SAX calls.
class ValueBuilder {
public:
    bool active() const { return !stack_.empty(); }
    bool atTop() const { return stack_.size() == 1; }
    const std::string& key() const { return key_; }
    void setKey(std::string key) { key_ = std::move(key); }

    void begin(json container) {
        root_ = std::move(container);
        stack_.assign(1, &root_);
    }
    void open(json container) { stack_.push_back(insert(std::move(container))); }
    void put(json value) { insert(std::move(value)); }
    void putAs(const std::string& key, json value) { (*stack_.back())[key] = std::move(value); }
    // True when the outermost container closed.
    bool close() {
        stack_.pop_back();
        return stack_.empty();
    }
    json& value() { return root_; }

private:
    json* insert(json value) {
        json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(value));
            return &top.back();
        }
        json& slot = top[key_];
        slot = std::move(value);
        return &slot;
    }

    json root_;
    std::vector<json*> stack_;
    std::string key_;
};

class TraceSax {
public:
    explicit TraceSax(TraceJsonVisitor& visitor) : visitor_(visitor) {}

    bool null() { return scalar(json()); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(json::number_integer_t v) {
        if (timeKey()) return builder_.putAs(builder_.key() + "_ns", json(microsToNs(v))), true;
        return scalar(json(v));
    }
    bool number_unsigned(json::number_unsigned_t v) {
        if (timeKey())
            return builder_.putAs(builder_.key() + "_ns",
                                  json(microsToNs(static_cast<int64_t>(v)))),
                   true;
        return scalar(json(v));
    }
    bool number_float(json::number_float_t v, const std::string& text) {
        if (timeKey())
            return builder_.putAs(builder_.key() + "_ns", json(microsTextToNs(text, v))), true;
        return scalar(json(v));
    }
    bool string(std::string& v) { return scalar(json(std::move(v))); }
    bool binary(json::binary_t&) { return true; }

    bool key(std::string& k) {
        if (builder_.active())
            builder_.setKey(std::move(k));
        else if (level_ == 1)
            top_key_ = std::move(k);
        return true;
    }
    bool start_object(std::size_t) { return start(json::object(), false); }
    bool start_array(std::size_t) { return start(json::array(), true); }
    bool end_object() { return end(); }
    bool end_array() { return end(); }

    template <typename Exception>
    bool parse_error(std::size_t position, const std::string&, const Exception& ex) {
        error_position_ = position;
        error_ = ex.what();
        return false;
    }

    // An object without "traceEvents" is no trace.
    TraceJsonRoot root() const {
        return root_ == TraceJsonRoot::Object && !has_event_list_ ? TraceJsonRoot::Other : root_;
    }
    size_t errorPosition() const { return error_position_; }
    const std::string& error() const { return error_; }

private:
    enum class Target { Event, Meta, Discard };

    bool timeKey() const {
        return builder_.active() && target_ == Target::Event && builder_.atTop() &&
               (builder_.key() == "ts" || builder_.key() == "dur");
    }

    bool start(json container, bool is_array) {
        const int level = level_++;
        if (builder_.active()) return builder_.open(std::move(container)), true;
        if (level == 0) {
            root_ = is_array ? TraceJsonRoot::List : TraceJsonRoot::Object;
            if (is_array) events_level_ = 1;
            return true;
        }
        if (root_ == TraceJsonRoot::Object && level == 1 && is_array && top_key_ == "traceEvents") {
            events_level_ = 2;
            has_event_list_ = true;
            return true;
        }
        if (level == events_level_)
            target_ = is_array ? Target::Discard : Target::Event;
        else
            target_ = root_ == TraceJsonRoot::Object && level == 1 ? Target::Meta : Target::Discard;
        builder_.begin(std::move(container));
        return true;
    }

    bool end() {
        const int level = --level_;
        if (builder_.active()) {
            if (builder_.close()) deliver();
            return true;
        }
        if (level == events_level_ - 1) events_level_ = -1; // the event list closed
        return true;
    }

    bool scalar(json value) {
        if (builder_.active()) return builder_.put(std::move(value)), true;
        if (level_ == 0)
            root_ = TraceJsonRoot::Other;
        else if (level_ == events_level_)
            visitor_.malformed();
        else if (root_ == TraceJsonRoot::Object && level_ == 1)
            visitor_.meta(top_key_, value);
        return true;
    }

    void deliver() {
        if (target_ == Target::Event)
            visitor_.event(builder_.value());
        else if (target_ == Target::Meta)
            visitor_.meta(top_key_, builder_.value());
        else
            visitor_.malformed();
    }

    TraceJsonVisitor& visitor_;
    ValueBuilder builder_;
    Target target_ = Target::Discard;
    TraceJsonRoot root_ = TraceJsonRoot::Other;
    int level_ = 0;
    int events_level_ = -1;
    bool has_event_list_ = false;
    std::string top_key_;
    size_t error_position_ = 0;
    std::string error_;
};

// The parser's input: the source's chunks one after another. Fetching a
// chunk is where the read reports progress and notices a cancel, so the
// per-character path stays one pointer compare.
class ChunkCursor {
public:
    ChunkCursor(TraceSource& source, const ReadProgress& progress)
        : source_(source), progress_(progress),
          chunk_bytes_(static_cast<size_t>(std::max<uint64_t>(progress.chunk_bytes, 1))) {}

    bool exhausted() { return p_ == end_ && !refill(); }
    char get() const { return *p_; }
    void next() { ++p_; }
    // Nothing but whitespace so far (an "empty" file).
    bool blank() const { return blank_; }

private:
    bool refill() {
        if (done_) return false;
        const std::string_view chunk = source_.next(chunk_bytes_);
        if (chunk.empty()) {
            done_ = true;
            return false;
        }
        if (blank_) blank_ = chunk.find_first_not_of(" \t\r\n") == std::string_view::npos;
        p_ = chunk.data();
        end_ = p_ + chunk.size();
        if (progress_.report && !progress_.report(source_.consumed(), source_.total()))
            throw TraceReadCancelled();
        return true;
    }

    TraceSource& source_;
    const ReadProgress& progress_;
    size_t chunk_bytes_;
    const char* p_ = nullptr;
    const char* end_ = nullptr;
    bool done_ = false;
    bool blank_ = true;
};

// An input iterator over a ChunkCursor, the form nlohmann::json::sax_parse
// takes input in. The default-constructed one is the end.
class ChunkIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = char;

    ChunkIterator() = default;
    explicit ChunkIterator(ChunkCursor& cursor) : cursor_(&cursor) {}
    char operator*() const { return cursor_->get(); }
    ChunkIterator& operator++() {
        cursor_->next();
        return *this;
    }
    // Only ever compared with the end, as the parser does.
    bool operator==(const ChunkIterator& other) const { return atEnd() == other.atEnd(); }
    bool operator!=(const ChunkIterator& other) const { return atEnd() != other.atEnd(); }

private:
    bool atEnd() const { return !cursor_ || cursor_->exhausted(); }
    ChunkCursor* cursor_ = nullptr;
};

// nlohmann's message names the parser's line and column (" at line L,
// column C"); moved to the file's when the text started inside the file.
std::string movedPosition(const std::string& what, const JsonTextBase& base) {
    const std::string at_line = " at line ", column = ", column ";
    const size_t l = what.find(at_line);
    const size_t c = l == std::string::npos ? l : what.find(column, l);
    if (c == std::string::npos) return what;
    const size_t c_end = what.find_first_not_of("0123456789", c + column.size());
    uint64_t line = std::stoull(what.substr(l + at_line.size(), c - l - at_line.size()));
    uint64_t col = std::stoull(what.substr(c + column.size(), c_end - c - column.size()));
    line -= std::min(line - 1, base.synthetic_lines); // lines of the file's text, from 1
    if (line == 1)
        col = base.column + (col >= base.synthetic_column ? col - base.synthetic_column : 0);
    return what.substr(0, l) + at_line + std::to_string(base.line + line) + column +
           std::to_string(col) + (c_end == std::string::npos ? "" : what.substr(c_end));
}

} // namespace

namespace {

// A parse error quotes the bytes it read, which in a binary file are not
// text: those print as \xNN, never raw into the user's terminal.
std::string printable(const std::string& text) {
    static const char* kHex = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    return out;
}

} // namespace

TraceJsonRoot streamTraceJson(TraceSource& source, const std::string& origin,
                              TraceJsonVisitor& visitor, const ReadProgress& progress,
                              const JsonTextBase& base) {
    TraceSax sax(visitor);
    ChunkCursor cursor(source, progress);
    if (!json::sax_parse(ChunkIterator(cursor), ChunkIterator(), &sax)) {
        const bool at_end = cursor.exhausted();
        if (at_end && cursor.blank())
            throw TraceReadError(origin + ": the file is empty; expected a Chrome trace (JSON).");
        const uint64_t local = sax.errorPosition();
        const uint64_t position =
            base.offset + (local >= base.synthetic ? local - base.synthetic : 0);
        const std::string what =
            base.synthetic || base.offset ? movedPosition(sax.error(), base) : sax.error();
        throw TraceReadError(origin + ": not valid JSON at byte " + std::to_string(position) +
                             (at_end ? " (the file ends early: truncated?)" : " (truncated?)") +
                             ": " + printable(what));
    }
    return sax.root();
}

} // namespace ts
