#include "records/EnvironmentInfo.h"

#include <algorithm>

namespace ts {

bool EnvironmentInfo::hasCpuFeature(const std::string& flag) const {
    return std::find(cpu_features.begin(), cpu_features.end(), flag) != cpu_features.end();
}

bool EnvironmentInfo::cpuHasNativeBf16() const {
    return hasCpuFeature("avx512_bf16") || hasCpuFeature("amx_bf16");
}

} // namespace ts
