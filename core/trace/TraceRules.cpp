#include "trace/TraceRules.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "trace/KinetoNames.h"

namespace ts {

const std::string_view kRawArgKeys[kRawArgCount] = {
    "External id",
    "external id",
    "correlation",
    "Sequence number",
    "step",
    "device_ns",
    "alloc_bytes",
    "free_bytes",
    "flops",
    "bytes",
    "device",
    "stream",
    "registers per thread",
    "shared memory",
    "blocks per SM",
    "est. achieved occupancy %",
    "Python id",
    "Python parent id",
    "Python module id",
    "Device Type",
    "Device Id",
    "Addr",
    "Bytes",
    "Total Allocated",
    "Total Reserved",
    "live_bytes",
    "memory bandwidth (GB/s)",
    "wait_on_stream",
    "wait_on_cuda_event_record_corr_id",
    "Seq",
};

EventKind kindFromCategory(KinetoCategory category, const std::string& name) {
    switch (category) {
    case KinetoCategory::None:
    case KinetoCategory::Operator:
        if (isProfilerStepName(name)) return EventKind::ProfilerStep;
        if (isDataLoaderName(name)) return EventKind::DataLoader;
        if (isCommunicationOpName(name)) return EventKind::Communication;
        if (isOptimizerName(name)) return EventKind::Annotation;
        if (isAutogradEventName(name)) return EventKind::Backward;
        // Legacy traces have no category: ATen ops carry a namespace, user
        // ranges (record_function) do not.
        if (category == KinetoCategory::None && name.find("::") == std::string::npos)
            return EventKind::Annotation;
        return EventKind::Operator;
    case KinetoCategory::UserAnnotation:
        if (isProfilerStepName(name)) return EventKind::ProfilerStep;
        if (isDataLoaderName(name)) return EventKind::DataLoader;
        if (isCommunicationOpName(name)) return EventKind::Communication;
        return EventKind::Annotation;
    case KinetoCategory::GpuUserAnnotation:
        return EventKind::Annotation;
    case KinetoCategory::Trace:
        return EventKind::ProfilerRange;
    case KinetoCategory::Runtime:
    case KinetoCategory::Driver:
        return EventKind::Runtime;
    case KinetoCategory::Kernel:
        return isCommunicationKernelName(name) ? EventKind::Communication : EventKind::Kernel;
    case KinetoCategory::Memcpy:
        return EventKind::Memcpy;
    case KinetoCategory::Memset:
        return EventKind::Memset;
    case KinetoCategory::Python:
        return EventKind::Python;
    case KinetoCategory::Other:
        return EventKind::Other;
    }
    return EventKind::Other;
}

bool isDeviceCategory(KinetoCategory c) {
    return c == KinetoCategory::Kernel || c == KinetoCategory::Memcpy ||
           c == KinetoCategory::Memset || c == KinetoCategory::GpuUserAnnotation;
}

bool launchesDeviceWork(KinetoCategory c) {
    return c == KinetoCategory::Kernel || c == KinetoCategory::Memcpy ||
           c == KinetoCategory::Memset;
}

int64_t microsTextToNs(std::string_view text, double value) {
    if (text.find_first_of("eE") != std::string_view::npos) return std::llround(value * 1000.0);
    const bool negative = !text.empty() && text[0] == '-';
    int64_t whole = 0, frac = 0;
    int frac_digits = 0;
    bool after_point = false;
    for (char c : text) {
        if (c == '.') {
            after_point = true;
        } else if (c >= '0' && c <= '9') {
            if (!after_point) {
                // Wraps like the old signed loop did on absurd values, without UB.
                whole = static_cast<int64_t>(static_cast<uint64_t>(whole) * 10u +
                                             static_cast<uint64_t>(c - '0'));
            } else if (frac_digits < 4) { // the 4th digit only rounds
                frac = frac * 10 + (c - '0');
                ++frac_digits;
            }
        }
    }
    while (frac_digits < 4)
        frac *= 10, ++frac_digits;
    const int64_t ns = static_cast<int64_t>(static_cast<uint64_t>(whole) * 1000u +
                                            static_cast<uint64_t>((frac + 5) / 10));
    return negative ? static_cast<int64_t>(0u - static_cast<uint64_t>(ns)) : ns;
}

RawNumber microsTokenToNs(std::string_view token) {
    // strtoll/strtoull/strtod want a terminated string: a stack copy for the
    // usual short tokens, the heap for absurd ones.
    char small[64];
    std::string large;
    const char* buffer = small;
    if (token.size() < sizeof small) {
        token.copy(small, token.size());
        small[token.size()] = '\0';
    } else {
        large.assign(token);
        buffer = large.c_str();
    }
    if (token.find_first_of(".eE") == std::string_view::npos) {
        errno = 0;
        char* end = nullptr;
        if (buffer[0] == '-') {
            const long long v = std::strtoll(buffer, &end, 10);
            if (errno != ERANGE)
                return RawNumber::ofInt(static_cast<int64_t>(static_cast<uint64_t>(v) * 1000u));
        } else {
            const unsigned long long v = std::strtoull(buffer, &end, 10);
            if (errno != ERANGE)
                return RawNumber::ofInt(static_cast<int64_t>(static_cast<uint64_t>(v) * 1000u));
        }
    }
    return RawNumber::ofInt(microsTextToNs(token, std::strtod(buffer, nullptr)));
}

} // namespace ts
