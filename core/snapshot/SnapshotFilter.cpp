#include "snapshot/SnapshotFilter.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "util/ByteSize.h"

namespace ts {
namespace {

std::string lowered(std::string text) {
    for (char& c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// Lifetimes to bytes alive after each entry: a band adds its size from its
// start (0 for one from before the trace) and takes it away at its end.
std::vector<int64_t> allocatedOf(const std::vector<ActiveBand>& bands, size_t entries) {
    std::vector<int64_t> delta(entries + 1, 0);
    for (const ActiveBand& b : bands) {
        const size_t start = size_t(std::max<int64_t>(0, b.start));
        const size_t end = size_t(std::clamp<int64_t>(b.end, 0, int64_t(entries)));
        if (start >= end) continue;
        delta[start] += b.size;
        delta[end] -= b.size;
    }
    std::vector<int64_t> allocated(entries);
    int64_t total = 0;
    for (size_t i = 0; i < entries; ++i)
        allocated[i] = total += delta[i];
    return allocated;
}

int64_t entryNumber(const std::string& text, const std::string& field, const std::string& all) {
    size_t used = 0;
    long long value = -1;
    try {
        value = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || value < 0)
        throw std::invalid_argument(field + " is '" + all +
                                    "'; expected FIRST:LAST, trace entry numbers from 0 "
                                    "(either may be left out, as in 100: or :5000).");
    return value;
}

} // namespace

SnapshotFilter parseSnapshotFilter(const SnapshotFilterText& text, const std::string& size_field,
                                   const std::string& entries_field) {
    SnapshotFilter f;
    if (!text.min_size.empty()) {
        const auto bytes = parseByteSize(text.min_size);
        if (!bytes)
            throw std::invalid_argument(size_field + " is '" + text.min_size +
                                        "'; expected a size such as 4096, 512K or 1.5MiB.");
        f.min_bytes = *bytes;
    }
    f.frame_text = text.frame;
    if (!text.entries.empty()) {
        const size_t colon = text.entries.find(':');
        const std::string first = text.entries.substr(0, colon);
        const std::string last =
            colon == std::string::npos ? first : text.entries.substr(colon + 1);
        if (!first.empty()) f.first_entry = entryNumber(first, entries_field, text.entries);
        if (!last.empty()) f.last_entry = entryNumber(last, entries_field, text.entries);
        if (f.last_entry >= 0 && f.last_entry < f.first_entry)
            throw std::invalid_argument(entries_field + " is '" + text.entries +
                                        "': the last entry comes before the first.");
    }
    return f;
}

std::string SnapshotFilter::describe() const {
    std::string out;
    auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
    if (min_bytes > 0) add("allocations of at least " + std::to_string(min_bytes) + " bytes");
    if (!frame_text.empty()) add("stacks with a frame containing '" + frame_text + "'");
    if (first_entry > 0 || last_entry >= 0)
        add("entries " + std::to_string(first_entry) + " to " +
            (last_entry >= 0 ? std::to_string(last_entry) : std::string("the end")));
    return out.empty() ? "no filter" : out;
}

std::vector<uint8_t> stacksMatching(const MemorySnapshot& s, const std::string& text) {
    std::vector<uint8_t> ok(s.stackCount(), text.empty() ? 1 : 0);
    if (text.empty()) return ok;
    const std::string needle = lowered(text);
    std::vector<int8_t> frame_ok(s.frames.size(), -1); // frames are shared by stacks too
    for (uint32_t st = 0; st < s.stackCount(); ++st) {
        for (size_t i = 0; i < s.stackSize(st) && !ok[st]; ++i) {
            const uint32_t f = s.stack_frames[s.stack_begin[st] + i];
            if (frame_ok[f] < 0)
                frame_ok[f] =
                    lowered(s.frameText(s.frames[f])).find(needle) != std::string::npos ||
                    lowered(s.strings[s.frames[f].filename]).find(needle) != std::string::npos;
            ok[st] = uint8_t(frame_ok[f]);
        }
    }
    return ok;
}

std::pair<int64_t, int64_t> filterRange(const MemorySnapshot& s, int device,
                                        const SnapshotFilter& filter) {
    const auto entries = int64_t(s.traceSize(device));
    if (entries == 0) return {0, -1};
    const int64_t first = filter.first_entry;
    const int64_t last = filter.last_entry < 0 ? entries - 1 : filter.last_entry;
    if (first < 0 || first > last || last >= entries)
        throw std::invalid_argument("the entries " + std::to_string(filter.first_entry) + " to " +
                                    std::to_string(filter.last_entry) + " are not in device " +
                                    std::to_string(device) + "'s trace, which has entries 0 to " +
                                    std::to_string(entries - 1));
    return {first, last};
}

FilteredAllocations filterAllocations(const MemorySnapshot& s, int device,
                                      const SnapshotFilter& filter) {
    FilteredAllocations f;
    f.device = device;
    const auto entries = int64_t(s.traceSize(device));
    std::tie(f.first, f.last) = filterRange(s, device, filter);
    const std::vector<uint8_t> matching = stacksMatching(s, filter.frame_text);
    std::vector<ActiveBand> kept;
    for (const ActiveBand& b : allocationLifetimes(s, device))
        if (b.size >= filter.min_bytes && matching[b.stack]) kept.push_back(b);
    f.allocated = allocatedOf(kept, size_t(entries));
    for (const ActiveBand& b : kept)
        if (b.start <= f.last && b.end > f.first) f.bands.push_back(b);
    for (int64_t i = f.first; i <= f.last; ++i)
        if (f.peak_entry < 0 || f.allocated[size_t(i)] > f.peak_bytes) {
            f.peak_entry = i;
            f.peak_bytes = f.allocated[size_t(i)];
        }
    return f;
}

std::vector<StackBytes> aliveAfter(const FilteredAllocations& f, int64_t entry) {
    return aliveByStack(f.bands, entry);
}

} // namespace ts
