#pragma once
// Holistic Trace Analysis' memory bandwidth: per kind of copy (Memcpy HtoD,
// DtoH, DtoD, ..., Memset), the bandwidth of the copies running at once over
// time (each copy adds its bandwidth while it runs), and its distribution.
// A copy's bandwidth is Kineto's "memory bandwidth (GB/s)" (from CUPTI's
// exact duration), else its bytes over its duration.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/DeviceActivity.h"
#include "util/Statistics.h"

namespace ts {

struct BandwidthPoint {
    int64_t t = 0;   // ns
    double gbps = 0; // from here until the kind's next point
};

struct MemoryKindBandwidth {
    std::string kind;                   // "Memcpy HtoD", "Memset", ...
    std::vector<BandwidthPoint> series; // a point per copy's start and end, in time order
    Description stats;                  // over the points above 0, as HTA's summary
    int64_t copies = 0;
    double bytes = 0;          // moved or set
    int64_t busy_ns = 0;       // some copy of this kind running
    double busy_mean_gbps = 0; // weighted by time, while busy
};

struct MemoryBandwidth {
    int64_t rank = 0;
    std::vector<MemoryKindBandwidth> kinds; // by kind
    size_t without_bandwidth = 0; // copies with neither a bandwidth nor bytes (AMD, MTIA traces)
};

// HTA's kind of a copy by its name: "Memset", the first 11 characters of a
// "Memcpy ..." ("Memcpy DtoH"), else "Memcpy Unknown".
std::string memoryKindOf(std::string_view name);

MemoryBandwidth memoryBandwidth(const Trace& trace, const DeviceActivities& activity);

} // namespace ts
