#pragma once
// Name rules of torch.profiler traces: which names mark the profiler's steps,
// the DataLoader, the optimizer and collective communication. Shared by the
// reader (event kinds) and the GPU analysis (the TensorBoard plugin's roles).
#include <cstdint>
#include <string>

namespace ts {

// "ProfilerStep#12".
bool isProfilerStepName(const std::string& name);
// 12 for "ProfilerStep#12", -1 when there is no number.
int64_t profilerStepNumber(const std::string& name);
// "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
// "enumerate(DataPipe)#ShufflerIterDataPipe".
bool isDataLoaderName(const std::string& name);
// "Optimizer.step#SGD.step", "Optimizer.zero_grad#SGD.zero_grad".
bool isOptimizerName(const std::string& name);
// "Optimizer.step#AdamW.step": the range PyTorch puts around optimizer.step().
bool isOptimizerStepName(const std::string& name);
// The ten collectives the TensorBoard plugin knows: nccl:/gloo: broadcast,
// reduce, all_reduce, all_gather, reduce_scatter.
bool isPluginCommunicationOp(const std::string& name);
// Trainscope's wider rule: any "nccl:*" or "gloo:*", "c10d::*" and
// "record_param_comms" (newer PyTorch names collectives so).
bool isCommunicationOpName(const std::string& name);
// NCCL's kernels: "ncclKernel_AllReduce_...", "ncclDevKernel_...".
bool isCommunicationKernelName(const std::string& name);
// The profiler's own range: "PyTorch Profiler (0)".
bool isProfilerRangeName(const std::string& name);

} // namespace ts
