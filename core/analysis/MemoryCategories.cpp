#include "analysis/MemoryCategories.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "trace/TraceBlockInput.h"

namespace ts {
namespace {

std::string readText(const std::string& path, size_t limit) {
    const std::unique_ptr<TraceBlockInput> in = openTraceBlockInput(path);
    std::string text;
    char block[1 << 16];
    while (text.size() < limit) {
        const size_t n = in->read(block, std::min(sizeof block, limit - text.size()));
        if (n == 0) break;
        text.append(block, n);
    }
    return text;
}

} // namespace

const char* memoryCategoryName(size_t code) {
    static const char* const kNames[kMemoryCategories] = {
        "Parameter",  "Optimizer state", "Input",    "Temporary",
        "Activation", "Gradient",        "Autograd", "Unknown"};
    return code < kMemoryCategories ? kNames[code] : "Unknown";
}

CategoryTimeline categoryTimelineFromJson(const std::string& text, const std::string& origin) {
    nlohmann::json rows;
    try {
        rows = nlohmann::json::parse(text);
    } catch (const std::exception& e) {
        throw std::invalid_argument(origin + ": not JSON (" + e.what() + ")");
    }
    if (!rows.is_array())
        throw std::invalid_argument(origin + ": not export_memory_timeline's raw rows (a list of "
                                             "[time, action, bytes, category])");
    // export_memory_timeline to a .json or .json.gz path writes the plot form
    // instead: [times_us, sizes], sizes one list of 1 + 8 numbers per time.
    if (rows.size() == 2 && rows[0].is_array() && rows[1].is_array() &&
        rows[0].size() == rows[1].size() && !rows[1].empty() && rows[1][0].is_array() &&
        rows[1][0].size() == kMemoryCategories + 1)
        throw std::invalid_argument(
            origin + ": export_memory_timeline's plot form ([times, sizes by category], what a "
                     ".json or .json.gz path gets), not its raw rows: export to a path ending in "
                     ".raw.json.gz for those");
    CategoryTimeline t;
    int64_t first_positive = -1;
    for (const nlohmann::json& row : rows) {
        if (!row.is_array() || row.size() != 4 || !row[0].is_number_integer() ||
            !row[2].is_number_integer() || !row[3].is_number_integer())
            throw std::invalid_argument(origin + ": row " + std::to_string(t.rows) +
                                        " is not [time, action, bytes, category]");
        const int64_t time = row[0], bytes = row[2], category = row[3];
        if (category < 0 || category >= int64_t(kMemoryCategories))
            throw std::invalid_argument(origin + ": row " + std::to_string(t.rows) +
                                        " has category " + std::to_string(category) +
                                        "; expected 0 to 7");
        if (time > 0 && (first_positive < 0 || time < first_positive)) first_positive = time;
        if (t.times_ns.empty() || time != t.times_ns.back()) {
            t.times_ns.push_back(time);
            t.bytes.push_back(t.bytes.empty() ? std::array<int64_t, kMemoryCategories>{}
                                              : t.bytes.back());
        }
        t.bytes.back()[size_t(category)] += bytes;
        ++t.rows;
    }
    for (int64_t& time : t.times_ns)
        if (time < 0) time = first_positive;
    return t;
}

CategoryTimeline readCategoryTimeline(const std::string& path) {
    return categoryTimelineFromJson(readText(path, SIZE_MAX), path);
}

CategoryPeak categoryPeak(const CategoryTimeline& t) {
    CategoryPeak peak;
    for (size_t i = 0; i < t.bytes.size(); ++i) {
        int64_t total = 0;
        for (int64_t b : t.bytes[i])
            total += b;
        if (i == 0 || total > peak.total_bytes) {
            peak.index = i;
            peak.time_ns = t.times_ns[i];
            peak.total_bytes = total;
            peak.bytes = t.bytes[i];
        }
    }
    return peak;
}

} // namespace ts
