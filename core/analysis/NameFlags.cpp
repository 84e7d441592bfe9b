#include "analysis/NameFlags.h"

#include "analysis/TensorCores.h"
#include "trace/KinetoNames.h"

namespace ts {

NameFlags::NameFlags(const std::vector<std::string>& names, bool plugin_compatible) {
    flags_.reserve(names.size());
    for (const std::string& n : names) {
        uint16_t f = 0;
        if (plugin_compatible ? isPluginCommunicationOp(n) : isCommunicationOpName(n))
            f |= kCollective;
        if (isCommunicationKernelName(n)) f |= kCommKernel;
        if (isDataLoaderName(n)) f |= kDataLoader;
        if (isTensorCoreKernel(n, plugin_compatible)) f |= kTensorCoreKernel;
        if (isTensorCoreEligibleOp(n)) f |= kEligibleOp;
        if (n.rfind("Optimizer.step", 0) == 0) f |= kOptimizerStep;
        if (n == "DataParallel.forward" || n == "DistributedDataParallel.forward" ||
            n.rfind("Optimizer.", 0) == 0)
            f |= kNotAnOperator;
        if (isProfilerStepName(n)) f |= kProfilerStep;
        if (n == "DataParallel.forward") f |= kDataParallelForward;
        if (n == "DistributedDataParallel.forward") f |= kDdpForward;
        if (n == "PyTorch Profiler (0)") f |= kProfilerRange;
        flags_.push_back(f);
    }
}

} // namespace ts
