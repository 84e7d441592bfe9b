#include "trace/JsonRespace.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "trace/JsonRawEvent.h"

namespace ts {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A recursive-descent copy for the common shapes. False: not a form it
// prints exactly like nlohmann (the caller falls back); `out` may then hold
// a partial copy.
class FastRespacer {
public:
    FastRespacer(std::string_view raw, std::string& out) : raw_(raw), out_(out) {}

    bool run() {
        skipSpace();
        if (!value()) return false;
        skipSpace();
        return pos_ == raw_.size();
    }

private:
    void skipSpace() {
        while (pos_ < raw_.size() && isSpace(raw_[pos_]))
            ++pos_;
    }
    bool value() {
        if (pos_ >= raw_.size()) return false;
        const char c = raw_[pos_];
        if (c == '[') return array();
        if (c == '"') return string();
        if (c == '-' || (c >= '0' && c <= '9')) return integer();
        for (std::string_view word : {"true", "false", "null"})
            if (raw_.substr(pos_, word.size()) == word) {
                out_.append(word);
                pos_ += word.size();
                return true;
            }
        return false;
    }
    bool array() {
        out_ += '[';
        ++pos_;
        skipSpace();
        if (pos_ < raw_.size() && raw_[pos_] == ']') {
            ++pos_;
            out_ += ']';
            return true;
        }
        for (;;) {
            skipSpace();
            if (!value()) return false;
            skipSpace();
            if (pos_ >= raw_.size()) return false;
            if (raw_[pos_] == ']') {
                ++pos_;
                out_ += ']';
                return true;
            }
            if (raw_[pos_] != ',') return false;
            ++pos_;
            out_ += ", ";
        }
    }
    // Strings without escapes print as they are read (the reader checked the
    // UTF-8 and that no control character is unescaped).
    bool string() {
        const size_t end = raw_.find_first_of("\"\\", pos_ + 1);
        if (end == std::string_view::npos || raw_[end] != '"') return false;
        for (size_t i = pos_ + 1; i < end; ++i)
            if (static_cast<unsigned char>(raw_[i]) < 0x20) return false;
        out_.append(raw_.substr(pos_, end + 1 - pos_));
        pos_ = end + 1;
        return true;
    }
    // Integers nlohmann prints digit for digit: no "-0", no leading zero, and
    // short enough to fit an int64_t.
    bool integer() {
        const size_t begin = pos_;
        if (raw_[pos_] == '-') ++pos_;
        const size_t digits = pos_;
        while (pos_ < raw_.size() && raw_[pos_] >= '0' && raw_[pos_] <= '9')
            ++pos_;
        const size_t n = pos_ - digits;
        if (n == 0 || n > 18 || (raw_[digits] == '0' && (n > 1 || digits > begin))) return false;
        if (pos_ < raw_.size() && (raw_[pos_] == '.' || raw_[pos_] == 'e' || raw_[pos_] == 'E'))
            return false;
        out_.append(raw_.substr(begin, pos_ - begin));
        return true;
    }

    std::string_view raw_;
    std::string& out_;
    size_t pos_ = 0;
};

} // namespace

// One pass, no output: the forms FastRespacer copies token by token, with
// exactly ", " between elements and no other whitespace, are the ones it
// would reproduce byte for byte. The grammar is checked as strictly as
// FastRespacer does: a value, then "," or "]".
bool isRespacedArray(std::string_view raw) {
    const char* p = raw.data();
    const char* const end = p + raw.size();
    int depth = 0;
    bool value_next = true; // after "[" or ", "; otherwise after a value
    bool opened = false;    // right after "[" (where "]" may follow)
    while (p < end) {
        const char c = *p;
        if (!value_next) {
            if (c == ']') {
                ++p;
                if (--depth == 0) return p == end;
            } else if (c == ',' && end - p >= 2 && p[1] == ' ') {
                p += 2;
                value_next = true;
            } else {
                return false;
            }
            continue;
        }
        if (depth == 0 && c != '[') return false;
        if (c == '[') {
            ++depth, ++p;
            opened = true;
            continue;
        }
        if (c == ']') {
            if (!opened) return false; // "[1, ]"
            ++p;
            opened = false;
            value_next = false;
            if (--depth == 0) return p == end;
            continue;
        }
        opened = false;
        value_next = false;
        if (c == '"') {
            for (++p; p < end && *p != '"'; ++p)
                if (*p == '\\' || static_cast<unsigned char>(*p) < 0x20) return false;
            if (p == end) return false;
            ++p;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            // Integers nlohmann prints digit for digit (FastRespacer::integer).
            const char* digits = c == '-' ? p + 1 : p;
            const char* q = digits;
            while (q < end && *q >= '0' && *q <= '9')
                ++q;
            const auto n = q - digits;
            if (n == 0 || n > 18 || (*digits == '0' && (n > 1 || digits > p))) return false;
            p = q;
        } else {
            std::string_view word;
            for (std::string_view w : {"true", "false", "null"})
                if (raw.substr(static_cast<size_t>(p - raw.data()), w.size()) == w) word = w;
            if (word.empty()) return false; // whitespace, objects, anything else
            p += word.size();
        }
    }
    return false;
}

void appendRespacedArray(std::string& out, std::string_view raw) {
    const size_t mark = out.size();
    if (FastRespacer(raw, out).run()) return;
    out.resize(mark);
    const auto parsed = nlohmann::json::parse(raw.begin(), raw.end(), nullptr, false);
    if (parsed.is_discarded()) throw std::invalid_argument("not valid JSON");
    out += spacedJson(parsed);
}

} // namespace ts
