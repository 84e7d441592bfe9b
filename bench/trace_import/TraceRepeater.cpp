#include "TraceRepeater.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "trace/KinetoNames.h"
#include "trace/TraceJsonStream.h"
#include "trace/TraceReadError.h"

namespace bench {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// Written to a generated trace's .meta.json: how its ids were numbered.
constexpr const char* kIdScheme = "dense";

void appendInt(std::string& out, int64_t value) {
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    out.append(buf, end);
}

// 1621401187223005250 ns -> "1621401187223005.25": the inverse of the
// reader's text-to-ns conversion, so the written ts reads back to the ns.
void appendMicros(std::string& out, int64_t ns) {
    if (ns < 0) out += '-';
    const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, magnitude / 1000).ptr;
    out.append(buf, end);
    unsigned frac = static_cast<unsigned>(magnitude % 1000);
    if (frac == 0) return;
    char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10),
                      char('0' + frac % 10)};
    size_t length = 4;
    while (digits[length - 1] == '0')
        --length;
    out.append(digits, length);
}

std::string dumpScalar(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Python's json.dumps layout (", " and ": "), which the source traces use:
// a generated gigabyte holds about as many events as a real one.
void appendJson(std::string& out, const json& value) {
    if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            out += first ? "" : ", ";
            first = false;
            out += dumpScalar(json(key));
            out += ": ";
            appendJson(out, item);
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        for (size_t i = 0; i < value.size(); ++i) {
            out += i == 0 ? "" : ", ";
            appendJson(out, value[i]);
        }
        out += ']';
    } else {
        out += dumpScalar(value);
    }
}

bool isIdKey(const std::string& arg) {
    return arg == "correlation" || arg == "External id" || arg == "external id" ||
           arg == "Python id" || arg == "Python parent id";
}

// Collects the event templates and what one repetition spans.
class TemplateBuilder {
public:
    EventTemplate build(const json& event) {
        current_ = EventTemplate{};
        text_.clear();
        text_ += '{';
        bool first = true;
        for (const auto& [key, value] : event.items()) {
            text_ += first ? "" : ", ";
            first = false;
            addMember(key, value, event);
        }
        text_ += '}';
        current_.texts.push_back(std::move(text_));
        text_.clear();
        return std::move(current_);
    }

    void countEvent(const json& event) {
        const auto ph = event.find("ph");
        const auto name = event.find("name");
        if (ph == event.end() || *ph != "X" || name == event.end() || !name->is_string() ||
            name->get_ref<const std::string&>().empty() || !event.contains("ts_ns"))
            return;
        const auto cat = event.find("cat");
        if (cat != event.end() && (*cat == "python_function" || *cat == "trainscope_step")) return;
        ++events_;
    }

    void spanEvent(const json& event) {
        const auto ts = event.find("ts_ns");
        if (ts == event.end() || !ts->is_number_integer()) return;
        const auto dur = event.find("dur_ns");
        const int64_t start = ts->get<int64_t>();
        const int64_t length =
            dur != event.end() && dur->is_number_integer() ? dur->get<int64_t>() : 0;
        first_ns_ = std::min(first_ns_, start);
        last_ns_ = std::max(last_ns_, start + std::max<int64_t>(0, length));
    }

    int64_t events() const { return events_; }
    int64_t firstNewId() const { return max_id_ + 1; }
    int64_t steps() const { return max_step_ < min_step_ ? 0 : max_step_ - min_step_ + 1; }
    // The span of one repetition plus a gap (a tenth of it, at least 1 ms),
    // in whole microseconds so integer timestamps stay integers.
    int64_t periodNs() const {
        const int64_t span = last_ns_ > first_ns_ ? last_ns_ - first_ns_ : 0;
        const int64_t period = span + std::max<int64_t>(1000000, span / 10);
        return (period + 999) / 1000 * 1000;
    }

private:
    void addMember(const std::string& key, const json& value, const json& event) {
        if (key == "ts_ns" && value.is_number_integer()) {
            text_ += "\"ts\": ";
            return hole(EventTemplate::Hole::Ts, value.get<int64_t>());
        }
        if (key == "dur_ns" && value.is_number_integer()) {
            text_ += "\"dur\": ";
            return appendMicros(text_, value.get<int64_t>());
        }
        text_ += dumpScalar(json(key));
        text_ += ": ";
        if (key == "id" && value.is_number_integer()) return idHole(value.get<int64_t>());
        if (key == "name" && value.is_string()) {
            const std::string& name = value.get_ref<const std::string&>();
            const int64_t step = ts::profilerStepNumber(name);
            if (step >= 0 && name == "ProfilerStep#" + std::to_string(step))
                return stepHole(EventTemplate::Hole::StepName, step);
        }
        if (key == "args" && value.is_object() && event.value("ph", "") != "M")
            return addArgs(value);
        appendJson(text_, value);
    }

    void addArgs(const json& args) {
        text_ += '{';
        bool first = true;
        for (const auto& [key, value] : args.items()) {
            text_ += first ? "" : ", ";
            first = false;
            text_ += dumpScalar(json(key));
            text_ += ": ";
            if (value.is_number_integer() && isIdKey(key))
                idHole(value.get<int64_t>());
            else if (value.is_number_integer() && key == "step")
                stepHole(EventTemplate::Hole::StepNumber, value.get<int64_t>());
            else
                appendJson(text_, value);
        }
        text_ += '}';
    }

    void idHole(int64_t id) {
        max_id_ = std::max(max_id_, id);
        hole(EventTemplate::Hole::Id, id);
    }
    void stepHole(EventTemplate::Hole kind, int64_t step) {
        min_step_ = std::min(min_step_, step);
        max_step_ = std::max(max_step_, step);
        hole(kind, step);
    }
    void hole(EventTemplate::Hole kind, int64_t base) {
        current_.texts.push_back(std::move(text_));
        text_.clear();
        current_.holes.push_back(kind);
        current_.bases.push_back(base);
        current_.ranks.push_back(0);
    }

    EventTemplate current_;
    std::string text_;
    int64_t events_ = 0;
    int64_t max_id_ = 0;
    int64_t min_step_ = std::numeric_limits<int64_t>::max();
    int64_t max_step_ = std::numeric_limits<int64_t>::min();
    int64_t first_ns_ = std::numeric_limits<int64_t>::max();
    int64_t last_ns_ = std::numeric_limits<int64_t>::min();
};

// The source's events and root keys, in file order.
class SourceCollector : public ts::TraceJsonVisitor {
public:
    void event(json& e) override { events.push_back(std::move(e)); }
    void meta(const std::string& key, json& value) override {
        root_keys.emplace_back(key, std::move(value));
    }
    void malformed() override {}

    std::vector<json> events;
    std::vector<std::pair<std::string, json>> root_keys;
};

uint64_t fnv1a(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    uint64_t hash = 1469598103934665603ull;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        for (std::streamsize i = 0; i < in.gcount(); ++i)
            hash = (hash ^ static_cast<unsigned char>(buf[i])) * 1099511628211ull;
    }
    return hash;
}

// Plain or gzip output through one large buffer.
class TraceSink {
public:
    TraceSink(const fs::path& path, bool gz) : path_(path) {
        if (gz) {
            gz_ = gzopen(path.c_str(), "wb1");
            if (gz_) gzbuffer(gz_, 1 << 20);
        } else {
            file_ = std::fopen(path.c_str(), "wb");
        }
        if (!gz_ && !file_) fail("cannot be created");
        buffer_.reserve(kFlushBytes + (1 << 20));
    }
    ~TraceSink() {
        if (file_) std::fclose(file_);
        if (gz_) gzclose(gz_);
    }
    TraceSink(const TraceSink&) = delete;
    TraceSink& operator=(const TraceSink&) = delete;

    std::string& buffer() { return buffer_; }
    uint64_t written() const { return written_ + buffer_.size(); }
    void flushIfFull() {
        if (buffer_.size() >= kFlushBytes) flush();
    }
    void close() {
        flush();
        const bool failed = file_ ? std::fclose(file_) != 0 : gzclose(gz_) != Z_OK;
        file_ = nullptr;
        gz_ = nullptr;
        if (failed) fail("could not be written completely (disk full?)");
    }

private:
    static constexpr size_t kFlushBytes = size_t(8) << 20;

    void flush() {
        if (buffer_.empty()) return;
        const bool ok =
            file_ ? std::fwrite(buffer_.data(), 1, buffer_.size(), file_) == buffer_.size()
                  : gzwrite(gz_, buffer_.data(), static_cast<unsigned>(buffer_.size())) ==
                        static_cast<int>(buffer_.size());
        if (!ok) fail("could not be written (disk full?)");
        written_ += buffer_.size();
        buffer_.clear();
    }
    [[noreturn]] void fail(const char* what) const {
        throw std::runtime_error(path_.string() + ": " + what);
    }

    fs::path path_;
    std::FILE* file_ = nullptr;
    gzFile gz_ = nullptr;
    std::string buffer_;
    uint64_t written_ = 0;
};

} // namespace

namespace {

// Sets each id hole's rank among the distinct ids of `events`; returns how
// many there are.
int64_t rankIds(std::vector<EventTemplate>& events) {
    std::vector<int64_t> ids;
    for (const EventTemplate& t : events)
        for (size_t i = 0; i < t.holes.size(); ++i)
            if (t.holes[i] == EventTemplate::Hole::Id) ids.push_back(t.bases[i]);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (EventTemplate& t : events)
        for (size_t i = 0; i < t.holes.size(); ++i)
            if (t.holes[i] == EventTemplate::Hole::Id)
                t.ranks[i] = std::lower_bound(ids.begin(), ids.end(), t.bases[i]) - ids.begin();
    return int64_t(ids.size());
}

} // namespace

TraceRepeater::TraceRepeater(const fs::path& source) {
    SourceCollector collected;
    ts::TraceJsonRoot root = ts::TraceJsonRoot::Other;
    try {
        auto text = ts::openTraceFile(source);
        root = ts::streamTraceJson(*text, source.string(), collected);
    } catch (const ts::TraceReadError& e) {
        throw std::invalid_argument(std::string("--source: ") + e.what());
    }
    if (root == ts::TraceJsonRoot::Other)
        throw std::invalid_argument("--source: " + source.string() +
                                    " is no Chrome trace (neither an event list nor an "
                                    "object with \"traceEvents\")");
    TemplateBuilder builder;
    for (const json& e : collected.events) {
        const bool metadata = e.value("ph", "") == "M";
        (metadata ? metadata_ : events_).push_back(builder.build(e));
        if (metadata) continue;
        builder.countEvent(e);
        builder.spanEvent(e);
    }
    if (events_.empty())
        throw std::invalid_argument("--source: " + source.string() + " has no events to repeat");
    if (root == ts::TraceJsonRoot::List) {
        root_head_ = "[";
        root_tail_ = "\n]\n";
    } else {
        root_head_ = "{";
        for (const auto& [key, value] : collected.root_keys) {
            root_head_ += dumpScalar(json(key)) + ": ";
            appendJson(root_head_, value);
            root_head_ += ", ";
        }
        root_head_ += "\"traceEvents\": [";
        root_tail_ = "\n]}\n";
    }
    first_new_id_ = builder.firstNewId();
    distinct_ids_ = rankIds(events_);
    summary_.events = builder.events();
    summary_.steps = builder.steps();
    summary_.period_ns = builder.periodNs();
}

namespace {

void render(const EventTemplate& t, int64_t k, int64_t period_ns, int64_t first_new_id,
            int64_t distinct_ids, int64_t steps, std::string& out) {
    for (size_t i = 0; i < t.holes.size(); ++i) {
        out += t.texts[i];
        const int64_t base = t.bases[i];
        switch (t.holes[i]) {
        case EventTemplate::Hole::Ts:
            appendMicros(out, base + k * period_ns);
            break;
        case EventTemplate::Hole::Id:
            appendInt(out, k == 0 ? base : first_new_id + (k - 1) * distinct_ids + t.ranks[i]);
            break;
        case EventTemplate::Hole::StepName:
            out += "\"ProfilerStep#";
            appendInt(out, base + k * steps);
            out += '"';
            break;
        case EventTemplate::Hole::StepNumber:
            appendInt(out, base + k * steps);
            break;
        }
    }
    out += t.texts.back();
}

} // namespace

GeneratedTrace TraceRepeater::write(const fs::path& out, uint64_t target_bytes, bool gz) const {
    const fs::path part = out.string() + ".part";
    TraceSink sink(part, gz);
    std::string& buf = sink.buffer();
    buf += root_head_;
    bool first = true;
    const auto put = [&](const EventTemplate& t, int64_t k) {
        buf += first ? "\n" : ",\n";
        first = false;
        render(t, k, summary_.period_ns, first_new_id_, distinct_ids_, summary_.steps, buf);
    };
    for (const EventTemplate& t : metadata_)
        put(t, 0);
    int64_t k = 0;
    do {
        for (const EventTemplate& t : events_) {
            put(t, k);
            sink.flushIfFull();
        }
        ++k;
    } while (sink.written() + root_tail_.size() < target_bytes);
    buf += root_tail_;
    GeneratedTrace g;
    g.json_bytes = sink.written();
    sink.close();
    fs::rename(part, out);
    g.path = out;
    g.file_bytes = fs::file_size(out);
    g.repetitions = k;
    g.events = k * summary_.events;
    g.steps = k * summary_.steps;
    g.repetition = summary_;
    return g;
}

fs::path generatedTracePath(const fs::path& source, const fs::path& work_dir, uint64_t target_bytes,
                            bool gz) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(source)));
    return work_dir / ("trace_" + std::string(hash) + "_" + std::to_string(target_bytes) +
                       (gz ? ".json.gz" : ".json"));
}

std::optional<GeneratedTrace> findGeneratedTrace(const fs::path& path) {
    const fs::path meta_path = path.string() + ".meta.json";
    std::error_code ec;
    if (!fs::exists(path, ec) || !fs::exists(meta_path, ec)) return std::nullopt;
    std::ifstream in(meta_path);
    const json meta = json::parse(in, nullptr, false);
    // Traces of the earlier id scheme (offset by the largest id + 1) are made again.
    if (!meta.is_object() || meta.value("file_bytes", uint64_t(0)) != fs::file_size(path) ||
        meta.value("ids", std::string()) != kIdScheme)
        return std::nullopt;
    GeneratedTrace g;
    g.path = path;
    g.file_bytes = meta.value("file_bytes", uint64_t(0));
    g.json_bytes = meta.value("json_bytes", uint64_t(0));
    g.repetitions = meta.value("repetitions", int64_t(0));
    g.events = meta.value("events", int64_t(0));
    g.steps = meta.value("steps", int64_t(0));
    g.repetition.events = meta.value("events_per_repetition", int64_t(0));
    g.repetition.steps = meta.value("steps_per_repetition", int64_t(0));
    g.repetition.period_ns = meta.value("period_ns", int64_t(0));
    g.reused = true;
    return g;
}

GeneratedTrace generateTrace(const fs::path& source, const fs::path& path, uint64_t target_bytes,
                             bool gz) {
    const TraceRepeater repeater(source);
    fs::create_directories(path.parent_path());
    GeneratedTrace g = repeater.write(path, target_bytes, gz);
    std::ofstream(path.string() + ".meta.json")
        << json{{"file_bytes", g.file_bytes},
                {"json_bytes", g.json_bytes},
                {"repetitions", g.repetitions},
                {"events", g.events},
                {"steps", g.steps},
                {"events_per_repetition", g.repetition.events},
                {"steps_per_repetition", g.repetition.steps},
                {"period_ns", g.repetition.period_ns},
                {"ids", kIdScheme}}
               .dump(2)
        << "\n";
    return g;
}

uint64_t parseSize(const std::string& text) {
    uint64_t value = 0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    const auto [rest, ec] = std::from_chars(begin, end, value);
    const std::string suffix(rest, end);
    uint64_t unit = 0;
    if (suffix.empty()) unit = 1;
    if (suffix == "K" || suffix == "k") unit = 1000;
    if (suffix == "M" || suffix == "m") unit = 1000 * 1000;
    if (suffix == "G" || suffix == "g") unit = 1000 * 1000 * 1000;
    if (ec != std::errc() || rest == begin || unit == 0 || value == 0)
        throw std::invalid_argument("--make: '" + text +
                                    "' is no size; give a number with K, M or G (decimal: "
                                    "1G = 10^9 bytes), e.g. 300M or 1G");
    return value * unit;
}

} // namespace bench
