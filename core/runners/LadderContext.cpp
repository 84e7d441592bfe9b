#include "runners/LadderContext.h"

#include <algorithm>

#include "config/ThreadChoice.h"
#include "env/Devices.h"
#include "env/Environment.h"

namespace ts {

LadderContext probeLadderContext(const std::string& device) {
    const auto env = probeEnvironment();
    LadderContext c;
    c.cuda = device.rfind("cuda", 0) == 0;
    c.cuda_bf16 = c.cuda && precisionSupportProblem(device, "bf16").empty();
    c.cpu_native_bf16 = env.cpuHasNativeBf16();
    c.logical_cores = std::max(1, env.usable_cores > 0 ? env.usable_cores : env.logical_cores);
    c.default_threads = chooseIntraOpThreads(0, 0, c.logical_cores).threads;
    c.cpu_model = env.cpu_model.empty() ? "unknown model" : env.cpu_model;
    return c;
}

} // namespace ts
