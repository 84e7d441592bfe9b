#pragma once
// The in-memory trace model shared by Trainscope's own profiler, the Chrome
// trace importer/exporter, the operator statistics and the GUI timeline.
// Compact on purpose (interned names, index links) so that a 1,000,000-event
// trace stays a few hundred MB at most and can be drawn fluidly.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/EventStore.h"
#include "trace/InternTable.h"
#include "trace/KinetoInfo.h"
#include "trace/TraceEvent.h"

namespace ts {

struct TraceLane {
    std::string name; // "thread 1234 (main)", "GPU 0 stream 7"
    int64_t tid = 0;
    bool device = false;
    int32_t gpu = -1;    // device lanes of Kineto traces: the GPU (the event's pid)
    int64_t stream = -1; // and the stream ("stream 7"), -1 unknown
};

// Live CPU tensor bytes after each allocation/free (memory counter track).
struct MemorySample {
    int64_t t_ns = 0;
    int64_t live_bytes = 0;
    int64_t delta_bytes = 0; // + allocation, - free
    int32_t event = -1;      // innermost operator at that moment, -1 none
};

struct StepMark {
    int64_t step = 0;
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};

struct Trace {
    std::vector<std::string> names;   // interned event names
    std::vector<std::string> strings; // interned other strings (shapes)
    std::vector<TraceLane> lanes;
    EventStore events;                // sorted by (lane, start_ns, -dur_ns)
    std::vector<MemorySample> memory; // sorted by t_ns
    std::vector<StepMark> steps;
    // When the trace marks no steps, the range they were found from
    // ("Optimizer.step#SGD.step", trace/OptimizerSteps.h); else "".
    std::string steps_from;
    std::vector<std::string> notes; // e.g. "truncated to 1000000 events"
    std::string source;             // "trainscope", "torch.profiler (kineto)", ...
    int64_t origin_ns = 0;          // absolute time of t=0 (for export)
    // What Kineto traces carry beyond the events (GPU memory, device
    // properties, Python frames); the per-event parts (category, ids, launch,
    // call stack) are in `events`, read through the accessors below.
    KinetoInfo kineto;

    uint32_t internName(std::string_view name);
    int32_t internString(std::string_view text);
    const std::string& nameOf(const TraceEvent& e) const { return names[e.name]; }
    const std::string& shapesOf(const TraceEvent& e) const;
    // Empty string for -1 (no string).
    const std::string& stringAt(int32_t index) const;
    // Kineto data of an event (what KinetoInfo's side tables held).
    KinetoCategory categoryOf(int32_t event) const;
    // Its correlation and External ids, nullopt when it has neither.
    std::optional<EventIds> idsOf(int32_t event) const;
    // Kernels, memcpy and memset: where and how they ran.
    std::optional<DeviceLaunch> launchOf(int32_t event) const;
    // What an Event Sync or Stream Wait Event waited for (nullopt: nothing said).
    std::optional<SyncWait> syncWaitOf(int32_t event) const;
    // Its Python call stack ("" none).
    const std::string& callStackOf(int32_t event) const;
    // A collective call's process group and number in it, nullptr none.
    const CollectiveTag* collectiveTagOf(int32_t event) const;
    // Whether the trace came with Kineto data (categories, launches, devices).
    bool hasKinetoInfo() const;
    // The lane for (tid, device), created with `name` when new.
    int32_t laneFor(int64_t tid, bool device, const std::string& name);
    // Restores sort order, parent/depth and forward<->backward links after
    // events were appended in arbitrary order. Links already set are kept
    // (renumbered); the others are found through sequence numbers: a backward
    // node links to the outermost forward op with its sequence number that
    // started last before it.
    void finalize();
    // Same; new_index[i] receives the position of the event that was at i.
    void finalize(std::vector<int32_t>* new_index);

private:
    InternTable name_index_, string_index_;
    std::unordered_map<int64_t, int32_t> lane_index_; // key: tid * 2 + device
};

// One finished profiling window, delivered by the engine to observers.
struct ProfileCapture {
    int window = 0;         // 0-based window index
    int64_t first_step = 0; // global steps covered (inclusive)
    int64_t last_step = 0;
    Trace trace;
    // The file Kineto saved for the window (when Kineto recorded it), kept
    // verbatim as the run's trace file; removed with the last capture that
    // holds it. Empty: the trace is written from `trace`.
    std::shared_ptr<const std::filesystem::path> kineto_file;
    std::string recorder = "trainscope"; // "kineto" or "trainscope"
};

} // namespace ts
