#pragma once
// Memory by category over time from torch.profiler's export_memory_timeline
// raw output ("*.raw.json.gz": rows [time_ns, action, bytes, category], for
// one device): Parameter, Optimizer state, Input, Temporary, Activation,
// Gradient, Autograd, Unknown. Summed as Holistic Trace Analysis'
// MemoryAnalysis does: one point per distinct time, each category's bytes
// after that time's rows; allocations that existed before profiling (time
// -1) are placed at the first time.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

inline constexpr size_t kMemoryCategories = 8;
// "Parameter", "Optimizer state", ..., "Unknown" (the raw file's codes 0-7).
const char* memoryCategoryName(size_t code);

struct CategoryTimeline {
    std::vector<int64_t> times_ns;
    std::vector<std::array<int64_t, kMemoryCategories>> bytes; // per time
    size_t rows = 0;
};

struct CategoryPeak {
    size_t index = 0;
    int64_t time_ns = 0;
    int64_t total_bytes = 0;
    std::array<int64_t, kMemoryCategories> bytes{};
};

// Throws std::invalid_argument naming the file (not JSON rows of four numbers,
// a category outside 0-7).
CategoryTimeline readCategoryTimeline(const std::string& path);
CategoryTimeline categoryTimelineFromJson(const std::string& text, const std::string& origin);
CategoryPeak categoryPeak(const CategoryTimeline& timeline);

} // namespace ts
