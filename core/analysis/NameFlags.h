#pragma once
// The name tests of the plugin's rules (collective, DataLoader, Tensor
// Cores, ...), made once per interned name (Trace::names) instead of once per
// event: a trace repeats a few thousand names over millions of events, and
// the substring tests were a third of the GPU analysis.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

class NameFlags {
public:
    // `plugin_compatible`: collectives by the plugin's own list.
    NameFlags(const std::vector<std::string>& names, bool plugin_compatible);

    bool collective(uint32_t name) const { return has(name, kCollective); }
    bool communicationKernel(uint32_t name) const { return has(name, kCommKernel); }
    bool dataLoader(uint32_t name) const { return has(name, kDataLoader); }
    bool tensorCoreKernel(uint32_t name) const { return has(name, kTensorCoreKernel); }
    bool tensorCoreEligibleOp(uint32_t name) const { return has(name, kEligibleOp); }
    bool optimizerStep(uint32_t name) const { return has(name, kOptimizerStep); }
    // Wrappers the operator views leave out (DataParallel.forward, Optimizer.*).
    bool notAnOperator(uint32_t name) const { return has(name, kNotAnOperator); }
    bool profilerStep(uint32_t name) const { return has(name, kProfilerStep); } // ProfilerStep#N
    // The Overview's marks: DataParallel.forward, DistributedDataParallel.forward
    // and Kineto's "PyTorch Profiler (0)" range.
    bool dataParallelForward(uint32_t name) const { return has(name, kDataParallelForward); }
    bool ddpForward(uint32_t name) const { return has(name, kDdpForward); }
    bool profilerRange(uint32_t name) const { return has(name, kProfilerRange); }

private:
    enum : uint16_t {
        kCollective = 1,
        kCommKernel = 2,
        kDataLoader = 4,
        kTensorCoreKernel = 8,
        kEligibleOp = 16,
        kOptimizerStep = 32,
        kNotAnOperator = 64,
        kProfilerStep = 128,
        kDataParallelForward = 256,
        kDdpForward = 512,
        kProfilerRange = 1024,
    };
    bool has(uint32_t name, uint16_t flag) const {
        return name < flags_.size() && (flags_[name] & flag) != 0;
    }
    std::vector<uint16_t> flags_;
};

} // namespace ts
