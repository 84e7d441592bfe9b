#include "trace/KinetoNames.h"

#include <cstdlib>

namespace ts {

namespace {

bool startsWith(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

bool isProfilerStepName(const std::string& name) {
    return startsWith(name, "ProfilerStep#");
}

int64_t profilerStepNumber(const std::string& name) {
    if (!isProfilerStepName(name)) return -1;
    const char* digits = name.c_str() + 13;
    if (*digits < '0' || *digits > '9') return -1;
    return std::atoll(digits);
}

bool isDataLoaderName(const std::string& name) {
    return (startsWith(name, "enumerate(DataLoader)#") && endsWith(name, ".__next__")) ||
           startsWith(name, "enumerate(DataPipe)#");
}

bool isOptimizerName(const std::string& name) {
    return startsWith(name, "Optimizer.");
}

bool isOptimizerStepName(const std::string& name) {
    return startsWith(name, "Optimizer.step#");
}

bool isPluginCommunicationOp(const std::string& name) {
    if (!startsWith(name, "nccl:") && !startsWith(name, "gloo:")) return false;
    const std::string op = name.substr(5);
    return op == "broadcast" || op == "reduce" || op == "all_reduce" || op == "all_gather" ||
           op == "reduce_scatter";
}

bool isCommunicationOpName(const std::string& name) {
    return (startsWith(name, "nccl:") && name.size() > 5) ||
           (startsWith(name, "gloo:") && name.size() > 5) || startsWith(name, "c10d::") ||
           name == "record_param_comms";
}

bool isCommunicationKernelName(const std::string& name) {
    return startsWith(name, "ncclKernel") || startsWith(name, "ncclDevKernel");
}

bool isProfilerRangeName(const std::string& name) {
    return startsWith(name, "PyTorch Profiler (");
}

} // namespace ts
