#include "trace/KinetoInfo.h"

#include <algorithm>
#include <cctype>

namespace ts {

KinetoCategory kinetoCategoryFromString(const std::string& cat) {
    if (cat.empty()) return KinetoCategory::None;
    std::string c(cat.size(), ' ');
    std::transform(cat.begin(), cat.end(), c.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (c == "cpu_op" || c == "operator") return KinetoCategory::Operator;
    if (c == "kernel") return KinetoCategory::Kernel;
    if (c == "gpu_memcpy" || c == "memcpy") return KinetoCategory::Memcpy;
    if (c == "gpu_memset" || c == "memset") return KinetoCategory::Memset;
    if (c == "cuda_driver") return KinetoCategory::Driver;
    // runtime, cuda_runtime, mtia_runtime, glow_runtime, xpu_runtime, ...
    if (c == "runtime" || (c.size() > 8 && c.compare(c.size() - 8, 8, "_runtime") == 0))
        return KinetoCategory::Runtime;
    if (c == "user_annotation") return KinetoCategory::UserAnnotation;
    if (c == "gpu_user_annotation") return KinetoCategory::GpuUserAnnotation;
    if (c == "python") return KinetoCategory::Python;
    if (c == "trace") return KinetoCategory::Trace;
    return KinetoCategory::Other;
}

const char* toString(KinetoCategory category) {
    switch (category) {
    case KinetoCategory::None:
        return "";
    case KinetoCategory::Trace:
        return "Trace";
    case KinetoCategory::Operator:
        return "cpu_op";
    case KinetoCategory::Runtime:
        return "cuda_runtime";
    case KinetoCategory::Driver:
        return "cuda_driver";
    case KinetoCategory::Kernel:
        return "kernel";
    case KinetoCategory::Memcpy:
        return "gpu_memcpy";
    case KinetoCategory::Memset:
        return "gpu_memset";
    case KinetoCategory::Python:
        return "python";
    case KinetoCategory::UserAnnotation:
        return "user_annotation";
    case KinetoCategory::GpuUserAnnotation:
        return "gpu_user_annotation";
    case KinetoCategory::Other:
        return "other";
    }
    return "other";
}

namespace {

template <typename Row> const Row* findRow(const std::vector<Row>& rows, int32_t event) {
    auto it = std::lower_bound(rows.begin(), rows.end(), event,
                               [](const Row& r, int32_t e) { return r.event < e; });
    return it != rows.end() && it->event == event ? &*it : nullptr;
}

template <typename Row> void remapRows(std::vector<Row>& rows, const std::vector<int32_t>& index) {
    for (Row& r : rows)
        r.event = r.event >= 0 && static_cast<size_t>(r.event) < index.size() ? index[r.event] : -1;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.event < b.event; });
}

} // namespace

const EventIds* KinetoInfo::idsOf(int32_t event) const {
    return findRow(ids, event);
}

const DeviceLaunch* KinetoInfo::launchOf(int32_t event) const {
    return findRow(launches, event);
}

void KinetoInfo::remap(const std::vector<int32_t>& new_index) {
    if (!category.empty()) {
        std::vector<KinetoCategory> moved(new_index.size(), KinetoCategory::None);
        for (size_t i = 0; i < category.size() && i < new_index.size(); ++i)
            moved[new_index[i]] = category[i];
        category.swap(moved);
    }
    remapRows(ids, new_index);
    remapRows(launches, new_index);
    for (auto& [event, text] : call_stacks)
        event = event >= 0 && static_cast<size_t>(event) < new_index.size() ? new_index[event] : -1;
    std::stable_sort(call_stacks.begin(), call_stacks.end());
}

} // namespace ts
