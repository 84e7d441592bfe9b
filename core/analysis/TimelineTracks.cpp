#include "analysis/TimelineTracks.h"

#include <algorithm>
#include <climits>
#include <map>

#include "analysis/RunningAllocated.h"

namespace ts {
namespace {

bool occupiesGpu(const Trace& trace, const EventCore& e) {
    if (e.kind != EventKind::Kernel && e.kind != EventKind::Communication) return false;
    return size_t(e.lane) < trace.lanes.size() && trace.lanes[size_t(e.lane)].device;
}

std::vector<GpuBusyRow> gpuBusyRows(const Trace& trace) {
    std::map<int32_t, RangeList> busy; // by GPU
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventCore& e = trace.events.core(i);
        if (!occupiesGpu(trace, e) || e.dur_ns <= 0) continue;
        const int32_t gpu = std::max(0, trace.lanes[size_t(e.lane)].gpu);
        busy[gpu].emplace_back(e.start_ns, e.end_ns());
    }
    std::vector<GpuBusyRow> rows;
    for (auto& entry : busy)
        rows.push_back(GpuBusyRow{entry.first, BusyTrack(std::move(entry.second))});
    return rows;
}

std::string memoryLabel(int type, int id) {
    if (type == 0) return "CPU memory";
    if (type == 1) return "GPU " + std::to_string(std::max(0, id)) + " memory";
    return "device " + std::to_string(type) + ":" + std::to_string(id) + " memory";
}

// Kineto's [memory] instants, one row per device. Older traces lack the
// totals: then the changes are summed (RunningAllocated). The reader keeps
// them in time order, so the sort is only for lists that are not (1.55 M
// instants in a 1 GB trace: sorting them anyway, and two map lookups each,
// were a fifth of a reopened trace's time to a drawn timeline).
std::vector<MemoryRow> kinetoMemoryRows(const Trace& trace) {
    const std::vector<DeviceMemoryEvent>& all = trace.kineto.memory;
    const auto earlier = [](const DeviceMemoryEvent& a, const DeviceMemoryEvent& b) {
        return a.t_ns < b.t_ns;
    };
    std::vector<DeviceMemoryEvent> sorted;
    if (!std::is_sorted(all.begin(), all.end(), earlier)) {
        sorted = all;
        std::stable_sort(sorted.begin(), sorted.end(), earlier);
    }
    struct Device {
        MemoryRow row;
        RunningAllocated allocated;
    };
    std::map<std::pair<int, int>, Device> devices;
    std::pair<int, int> last_key{INT32_MIN, INT32_MIN};
    Device* device = nullptr; // of last_key: instants come in runs of one device
    for (const DeviceMemoryEvent& m : sorted.empty() ? all : sorted) {
        const std::pair<int, int> key{m.device_type, m.device_id};
        if (!device || key != last_key) {
            device = &devices[key];
            last_key = key;
            if (device->row.label.empty()) {
                device->row.label = memoryLabel(key.first, key.second);
                // The first device's room for every instant: most traces
                // have one or two devices, and growing was nearly half of this.
                if (devices.size() == 1) {
                    device->row.allocated.reserve(all.size());
                    device->row.reserved.reserve(all.size());
                }
            }
        }
        MemoryRow& row = device->row;
        row.allocated.add(m.t_ns, double(device->allocated.after(m.bytes, m.total_allocated)));
        if (m.total_reserved >= 0) row.reserved.add(m.t_ns, double(m.total_reserved));
    }
    std::vector<MemoryRow> out;
    // GPUs first (type 1), then the CPU: the GPU rows are what users look for.
    for (int pass = 0; pass < 2; ++pass)
        for (auto& [key, d] : devices)
            if ((key.first == 1) == (pass == 0)) {
                d.row.from_deltas = d.allocated.fromDeltas();
                out.push_back(std::move(d.row));
            }
    return out;
}

// Trainscope's own traces: live CPU tensor bytes.
MemoryRow ownMemoryRow(const Trace& trace) {
    MemoryRow row;
    row.label = "CPU memory";
    for (const MemorySample& m : trace.memory)
        row.allocated.add(m.t_ns, double(m.live_bytes));
    return row;
}

std::vector<StepSpan> stepSpans(const Trace& trace, const LaunchIndex& launches) {
    std::vector<StepSpan> spans;
    for (const StepMark& s : trace.steps)
        spans.push_back(StepSpan{s.step, s.start_ns, s.end_ns, INT64_MAX, INT64_MIN});
    std::sort(spans.begin(), spans.end(),
              [](const StepSpan& a, const StepSpan& b) { return a.host_start < b.host_start; });
    if (spans.empty()) return spans;
    // The launched events in event order, each with its launcher (the first
    // by launcherOf's order, should one have two).
    int32_t previous = -1;
    for (const auto& [device, runtime] : launches.byDevice()) {
        if (device == previous) continue;
        previous = device;
        const size_t i = size_t(device);
        const int64_t launched = trace.events.core(size_t(runtime)).start_ns;
        auto it = std::upper_bound(spans.begin(), spans.end(), launched,
                                   [](int64_t t, const StepSpan& s) { return t < s.host_start; });
        if (it == spans.begin() || launched >= std::prev(it)->host_end) continue;
        StepSpan& span = *std::prev(it);
        span.device_start = std::min(span.device_start, trace.events.core(i).start_ns);
        span.device_end = std::max(span.device_end, trace.events.core(i).end_ns());
    }
    for (StepSpan& s : spans)
        if (!s.hasDevice()) {
            s.device_start = 0;
            s.device_end = -1;
        }
    return spans;
}

} // namespace

TimelineTracks buildTimelineCounters(const Trace& trace) {
    TimelineTracks tracks;
    tracks.gpus = gpuBusyRows(trace);
    tracks.memory = kinetoMemoryRows(trace);
    // Kineto's CPU [memory] instants are in both tables: one row for them.
    if (trace.kineto.memory.empty() && !trace.memory.empty())
        tracks.memory.push_back(ownMemoryRow(trace));
    for (MemoryRow& row : tracks.memory) {
        row.allocated.finish();
        row.reserved.finish();
    }
    return tracks;
}

void addTimelineLaunches(TimelineTracks& tracks, const Trace& trace, const KinetoEvents* events,
                         const LaunchLinks* links) {
    tracks.launches =
        events && links ? LaunchIndex::build(*events, *links) : LaunchIndex::build(trace);
    tracks.steps = stepSpans(trace, tracks.launches);
}

TimelineTracks buildTimelineTracks(const Trace& trace, const KinetoEvents* events,
                                   const LaunchLinks* links) {
    TimelineTracks tracks = buildTimelineCounters(trace);
    addTimelineLaunches(tracks, trace, events, links);
    return tracks;
}

} // namespace ts
