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

} // namespace ts
