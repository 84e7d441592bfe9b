#pragma once
// Side tables of a torch.profiler (Kineto) trace: what the GPU views need
// beyond TraceEvent (the trace category of each event, correlation and
// external ids, kernel launch properties, GPU memory instants, device
// properties, distributed info, call stacks, Python module frames).
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ts {

// The event's "cat", as torch.profiler's TensorBoard plugin groups them
// (case-insensitive on the file's text).
enum class KinetoCategory : uint8_t {
    None,              // no "cat" (legacy traces, Trainscope's own steps)
    Trace,             // the profiler's own range ("PyTorch Profiler (0)")
    Operator,          // cpu_op, operator
    Runtime,           // cuda_runtime, runtime, hip/mtia/xpu/... _runtime
    Driver,            // cuda_driver (newer Kineto): the plugin drops these
    Kernel,            // kernel
    Memcpy,            // gpu_memcpy, memcpy
    Memset,            // gpu_memset, memset
    Python,            // python
    UserAnnotation,    // user_annotation
    GpuUserAnnotation, // gpu_user_annotation
    Other,             // anything else (the plugin drops these)
};
KinetoCategory kinetoCategoryFromString(const std::string& cat);
const char* toString(KinetoCategory category);

// Correlation (runtime call <-> device work) and External id (CPU op <->
// runtime call <-> device work); -1 where the event has none.
struct EventIds {
    int32_t event = -1;
    int64_t correlation = -1;
    int64_t external_id = -1;
};

// What an event-based synchronisation waited for ("Event Sync" of
// cudaEventSynchronize, "Stream Wait Event" of cudaStreamWaitEvent): the
// stream the CUDA event was recorded on and the correlation id of the
// cudaEventRecord call that recorded it; -1 where the trace does not say.
struct SyncWait {
    int64_t stream = -1;
    int64_t record_correlation = -1;
};

inline constexpr float kNoValue = std::numeric_limits<float>::quiet_NaN();

// Kernel, memcpy and memset events: where and how they ran.
struct DeviceLaunch {
    int32_t event = -1;
    int32_t device = -1; // args.device, -1 missing
    int32_t stream = -1;
    // Missing dimensions are -1 (grid/block absent in memcpy, older traces).
    std::array<int32_t, 3> grid{-1, -1, -1};
    std::array<int32_t, 3> block{-1, -1, -1};
    int32_t registers = -1;         // registers per thread, -1 missing
    int32_t shared_memory = -1;     // bytes of shared memory, -1 missing
    float blocks_per_sm = kNoValue; // Kineto's estimate, NaN missing
    float occupancy = kNoValue;     // est. achieved occupancy %, NaN missing

    bool hasGrid() const { return grid[0] >= 0; }
    bool hasBlock() const { return block[0] >= 0; }
};

// One "[memory]" instant: an allocation (bytes > 0) or release on a device.
// 48 bytes: a profile_memory trace has one per allocation and per free, as
// many as its operators (1.55 M in the 1 GB benchmark trace).
struct DeviceMemoryEvent {
    int64_t t_ns = 0;  // relative to Trace::origin_ns
    int64_t addr = -1; // -1 missing
    int64_t bytes = 0;
    int64_t total_allocated = -1; // -1 missing
    int64_t total_reserved = -1;
    int32_t lane = -1;
    int16_t device_id = -1;  // -1 missing or outside int16
    int8_t device_type = -1; // 0 CPU, 1 CUDA, other values as written
    uint8_t flags = 0;

    // CPU memory ("Device Type" 0 or absent): it counts towards the op open
    // on its thread (analysis/OpMemory.h).
    static constexpr uint8_t kCountsTowardsOp = 1;
    // "Total Allocated" was there (total_allocated -1 may be a value then).
    static constexpr uint8_t kHasTotalAllocated = 2;
    bool countsTowardsOp() const { return flags & kCountsTowardsOp; }
};
static_assert(sizeof(DeviceMemoryEvent) == 48, "one per memory instant: keep it small");

// One entry of the top-level "deviceProperties" list.
struct DeviceProperties {
    int32_t id = -1;
    std::string name;
    int64_t total_global_mem = 0; // bytes
    int32_t compute_major = 0, compute_minor = 0;
    int32_t num_sms = 0;
    int32_t max_threads_per_sm = 0;
};

// A python_function frame (not an event of the trace: kept for the module
// view). module_id >= 0 marks an nn.Module's forward.
struct PythonFrame {
    int32_t name = -1; // index into Trace::names
    int32_t lane = -1;
    int64_t start_ns = 0, dur_ns = 0;
    int64_t python_id = -1, parent_id = -1, module_id = -1;
};

// A collective call's place in its process group, as PyTorch 2 writes it on
// record_param_comms and on NCCL kernels ("Process Group Name", "Seq"):
// the same call on every rank of the group has the same pair, so the
// Distributed view matches calls by it (analysis/DistributedView.h) rather
// than by their order, which can differ between ranks.
struct CollectiveTag {
    int32_t event = -1; // index into Trace::events
    int32_t group = -1; // index into Trace::strings: the group's name, -1 none
    int64_t seq = -1;
};

// The trace-level Kineto data. Per-event data (category, ids, launch, call
// stack) lives in the EventStore: Trace::categoryOf, idsOf, launchOf.
struct KinetoInfo {
    std::vector<DeviceMemoryEvent> memory;
    std::vector<DeviceProperties> devices;
    std::vector<PythonFrame> python_frames;
    std::vector<CollectiveTag> collective_tags; // by event
    std::string distributed_info; // the "distributedInfo" object as JSON text, "" none
    std::string framework;        // top-level "Framework" ("pytorch-lightning"), "" none
    int64_t ac2g_links = 0;       // device events linked through "ac2g" flows
};

} // namespace ts
