#include "RankTemplate.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "trace/KinetoNames.h"

namespace bench {

namespace {

// splitmix64: the same figures for a rank on every machine and every run.
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

[[noreturn]] void badLayout(const std::string& why) {
    throw std::invalid_argument("the repeated rank trace is not laid out as TraceRepeater writes "
                                "it: " +
                                why);
}

// The end of the JSON value that starts at `i` (an object, array, string or
// scalar), in a line TraceRepeater wrote.
size_t skipValue(std::string_view line, size_t i) {
    int depth = 0;
    bool in_string = false;
    for (; i < line.size(); ++i) {
        const char c = line[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            if (!in_string && depth == 0) return i + 1;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return i; // the enclosing object's end
            if (--depth == 0) return i + 1;
        } else if (c == ',' && depth == 0) {
            return i;
        }
    }
    return i;
}

struct Member {
    std::string_view key;   // without quotes
    size_t value_begin = 0; // in the line
    size_t value_end = 0;
};

// The top-level members of one event line, "{"key": value, ...}".
std::vector<Member> topLevelMembers(std::string_view line) {
    std::vector<Member> out;
    if (line.empty() || line.front() != '{') badLayout("an event line does not start with '{'");
    size_t i = 1;
    while (i < line.size() && line[i] != '}') {
        while (i < line.size() && (line[i] == ' ' || line[i] == ','))
            ++i;
        if (i >= line.size() || line[i] != '"') badLayout("no key at column " + std::to_string(i));
        const size_t key_end = skipValue(line, i);
        if (key_end + 2 > line.size() || line.compare(key_end, 2, ": ") != 0)
            badLayout("no key at column " + std::to_string(i));
        Member m;
        m.key = line.substr(i + 1, key_end - i - 2);
        m.value_begin = key_end + 2;
        m.value_end = skipValue(line, m.value_begin);
        out.push_back(m);
        i = m.value_end;
    }
    return out;
}

std::string_view unquoted(std::string_view value) {
    return value.size() >= 2 && value.front() == '"' ? value.substr(1, value.size() - 2) : value;
}

// "1682725898236567.25" (microseconds, up to three decimals) -> ns.
int64_t parseMicros(std::string_view text) {
    const size_t dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    int64_t us = 0;
    auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), us);
    int64_t frac = 0;
    std::string_view decimals = dot == std::string_view::npos ? "" : text.substr(dot + 1);
    if (ec != std::errc() || end != whole.data() + whole.size() || decimals.size() > 3)
        badLayout("'" + std::string(text) + "' is no time in microseconds with up to 3 decimals");
    for (size_t d = 0; d < 3; ++d) {
        const char c = d < decimals.size() ? decimals[d] : '0';
        if (c < '0' || c > '9') badLayout("'" + std::string(text) + "' has a bad decimal");
        frac = frac * 10 + (c - '0');
    }
    return us * 1000 + (us < 0 || whole.front() == '-' ? -frac : frac);
}

// ns -> microseconds with the decimals it needs (TraceRepeater's form, so a
// time the rank does not change reads back to the same ns).
void writeMicros(std::string& out, int64_t ns) {
    const uint64_t magnitude = ns < 0 ? 0 - uint64_t(ns) : uint64_t(ns);
    char buf[32];
    int length = std::snprintf(buf, sizeof buf, "%s%llu.%03u", ns < 0 ? "-" : "",
                               static_cast<unsigned long long>(magnitude / 1000),
                               static_cast<unsigned>(magnitude % 1000));
    while (buf[length - 1] == '0')
        --length;
    if (buf[length - 1] == '.') --length;
    out.append(buf, size_t(length));
}

// The digits of the integer after `"key": ` inside the distributedInfo
// object of the trace's head: [begin, end).
std::pair<size_t, size_t> distributedField(const std::string& head, const std::string& key) {
    const size_t info = head.find("\"distributedInfo\": {");
    const size_t info_end = info == std::string::npos ? info : head.find('}', info);
    const std::string pattern = "\"" + key + "\": ";
    const size_t at = info == std::string::npos ? info : head.find(pattern, info);
    if (at == std::string::npos || at > info_end)
        throw std::invalid_argument("the source rank trace has no distributedInfo with \"" + key +
                                    "\"; give a trace of a distributed run");
    const size_t begin = at + pattern.size();
    size_t end = begin;
    while (end < head.size() && head[end] >= '0' && head[end] <= '9')
        ++end;
    return {begin, end};
}

} // namespace

int64_t slowRank(int64_t world_size) {
    return std::min(world_size * 2 / 3 + 1, world_size - 1);
}

RankTiming rankTiming(int64_t rank, int64_t world_size) {
    RankTiming t;
    t.rank = rank;
    t.world_size = world_size;
    const uint64_t h = mix(uint64_t(rank));
    t.compute_scale = rank == slowRank(world_size) ? 1.5 : 0.98 + 0.04 * double(h % 1001) / 1000;
    t.clock_offset_ns = (int64_t((h >> 20) % 11) - 5) * 1000;
    return t;
}

int64_t countEventLines(const std::string& text) {
    return int64_t(std::count(text.begin(), text.end(), '\n')) - 2;
}

RankTemplate::RankTemplate(const std::string& text, int64_t events_per_repetition,
                           int64_t repetitions) {
    const size_t head_end = text.find('\n');
    if (head_end == std::string::npos) badLayout("no line breaks");
    const std::string head = text.substr(0, head_end);
    const auto [rank_begin, rank_end] = distributedField(head, "rank");
    const auto [world_begin, world_end] = distributedField(head, "world_size");
    std::string piece;
    const auto hole = [&](Hole kind, int64_t ns) {
        texts_.push_back(std::move(piece));
        piece.clear();
        holes_.push_back(kind);
        ns_.push_back(ns);
    };
    // rank and world_size in either order
    const bool rank_first = rank_begin < world_begin;
    piece = head.substr(0, std::min(rank_begin, world_begin));
    hole(rank_first ? Hole::Rank : Hole::WorldSize, 0);
    piece = head.substr(rank_first ? rank_end : world_end,
                        std::max(rank_begin, world_begin) - (rank_first ? rank_end : world_end));
    hole(rank_first ? Hole::WorldSize : Hole::Rank, 0);
    piece = head.substr(std::max(rank_end, world_end));

    int64_t metadata = -1, kept = 0, limit = -1;
    size_t line_begin = head_end + 1;
    while (line_begin < text.size()) {
        size_t line_end = text.find('\n', line_begin);
        if (line_end == std::string::npos) line_end = text.size();
        std::string_view line(text.data() + line_begin, line_end - line_begin);
        line_begin = line_end + 1;
        if (line.empty() || line.front() != '{') break; // "]}": the event list's end
        if (line.back() == ',') line.remove_suffix(1);
        const std::vector<Member> members = topLevelMembers(line);
        std::string_view ph, cat, name;
        const Member *ts = nullptr, *dur = nullptr;
        for (const Member& m : members) {
            const std::string_view value = line.substr(m.value_begin, m.value_end - m.value_begin);
            if (m.key == "ph") ph = unquoted(value);
            if (m.key == "cat") cat = unquoted(value);
            if (m.key == "name") name = unquoted(value);
            if (m.key == "ts") ts = &m;
            if (m.key == "dur") dur = &m;
        }
        if (metadata < 0 && ph != "M") {
            metadata = kept;
            limit = metadata + events_per_repetition * repetitions;
        }
        if (limit >= 0 && kept == limit) break;
        ++kept;
        piece += kept == 1 ? "\n" : ",\n";
        const bool compute = cat == "kernel" && !ts::isCommunicationKernelName(std::string(name));
        // ts and dur in the order the line has them
        std::vector<std::pair<const Member*, Hole>> holes;
        if (ts) holes.push_back({ts, Hole::Ts});
        if (dur && compute) holes.push_back({dur, Hole::ComputeDur});
        std::sort(holes.begin(), holes.end(), [](const auto& a, const auto& b) {
            return a.first->value_begin < b.first->value_begin;
        });
        size_t at = 0;
        for (const auto& [m, kind] : holes) {
            piece.append(line.substr(at, m->value_begin - at));
            hole(kind, parseMicros(line.substr(m->value_begin, m->value_end - m->value_begin)));
            at = m->value_end;
        }
        piece.append(line.substr(at));
    }
    if (limit < 0 || kept < limit)
        badLayout("it holds " + std::to_string(kept) + " events, fewer than " +
                  std::to_string(repetitions) + " repetitions of " +
                  std::to_string(events_per_repetition));
    piece += "\n]}\n";
    texts_.push_back(std::move(piece));
    for (const std::string& t : texts_)
        rendered_bytes_ += t.size();
    events_ = kept;
    first_ts_ns_ = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < holes_.size(); ++i) {
        if (holes_[i] == Hole::Ts) first_ts_ns_ = std::min(first_ts_ns_, ns_[i]);
        if (holes_[i] != Hole::ComputeDur) continue;
        compute_ns_ += ns_[i];
        ++compute_kernels_;
    }
    rendered_bytes_ += holes_.size() * 24;
}

void RankTemplate::render(const RankTiming& timing, std::string& out) const {
    out.clear();
    out.reserve(rendered_bytes_);
    char digits[24];
    const auto appendInt = [&](int64_t value) {
        out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    };
    for (size_t i = 0; i < holes_.size(); ++i) {
        out += texts_[i];
        switch (holes_[i]) {
        case Hole::Rank:
            appendInt(timing.rank);
            break;
        case Hole::WorldSize:
            appendInt(timing.world_size);
            break;
        case Hole::Ts:
            writeMicros(out, ns_[i] + timing.clock_offset_ns);
            break;
        case Hole::ComputeDur:
            writeMicros(out, std::llround(double(ns_[i]) * timing.compute_scale));
            break;
        }
    }
    out += texts_.back();
}

} // namespace bench
