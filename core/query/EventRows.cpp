// The tables of events: slices (every event), kernels (the device work) and
// launches (runtime call -> device work).
#include <cmath>

#include "analysis/LaunchIndex.h"
#include "query/SqlColumns.h"

namespace ts {
namespace {

bool isDeviceWork(const Trace& trace, const EventCore& e) {
    switch (e.kind) {
    case EventKind::Kernel:
    case EventKind::Memcpy:
    case EventKind::Memset:
    case EventKind::Communication:
        return trace.lanes[e.lane].device;
    default:
        return false;
    }
}

// An event of slices or kernels.
struct EventRow {
    const SqlTraceContext& c;
    int32_t event;

    const Trace& trace() const { return c.trace(); }
    const EventCore& core() const { return c.trace().events.core(size_t(event)); }
    const TraceLane& lane() const { return c.trace().lanes[core().lane]; }
};

// The cells slices and kernels share.
SqlCell eventId(const EventRow& r) {
    return SqlCell::integer(r.event);
}
SqlCell eventTs(const EventRow& r) {
    return SqlCell::integer(r.core().start_ns);
}
SqlCell eventDur(const EventRow& r) {
    return SqlCell::integer(r.core().dur_ns);
}
SqlCell eventEndTs(const EventRow& r) {
    return SqlCell::integer(r.core().end_ns());
}
SqlCell eventName(const EventRow& r) {
    return SqlCell::text(r.trace().names[r.core().name]);
}
SqlCell eventNameId(const EventRow& r) {
    return SqlCell::integer(r.core().name);
}
SqlCell eventKind(const EventRow& r) {
    return SqlCell::text(toString(r.core().kind));
}
SqlCell eventCategory(const EventRow& r) {
    const KinetoCategory category = r.core().category;
    return category == KinetoCategory::None ? SqlCell{} : SqlCell::text(toString(category));
}
SqlCell eventLane(const EventRow& r) {
    return SqlCell::integer(r.core().lane);
}
SqlCell eventThread(const EventRow& r) {
    return laneThread(r.lane());
}
SqlCell eventStream(const EventRow& r) {
    return laneStream(r.lane());
}
SqlCell eventDevice(const EventRow& r) {
    return laneDevice(r.lane());
}
SqlCell eventRank(const EventRow& r) {
    return SqlCell::id(r.c.rankOf(r.core().lane));
}
SqlCell eventDepth(const EventRow& r) {
    return SqlCell::integer(r.core().depth);
}
SqlCell eventParent(const EventRow& r) {
    return SqlCell::id(r.core().parent);
}
SqlCell eventStep(const EventRow& r) {
    return SqlCell::id(r.trace().events.step(size_t(r.event)));
}
// correlation, external_id
template <int64_t EventIds::*Id> SqlCell eventIdOf(const EventRow& r) {
    const std::optional<EventIds> ids = r.trace().events.ids(size_t(r.event));
    return ids ? SqlCell::id((*ids).*Id) : SqlCell{};
}

constexpr SqlColumnOf<EventRow> kSliceColumns[] = {
    {"id", "INTEGER", "the event's number (the rowid); other tables refer to it", eventId},
    {"ts", "INTEGER", "start, ns from the trace's start", eventTs},
    {"dur", "INTEGER", "duration, ns", eventDur},
    {"end_ts", "INTEGER", "ts + dur", eventEndTs},
    {"name", "TEXT", "the event's name", eventName},
    {"name_id", "INTEGER", "the name's number (names.id)", eventNameId},
    {"kind", "TEXT",
     "operator, backward, annotation, kernel, memcpy, memset, runtime, communication, "
     "dataloader, profiler_step, profiler_range, python, other",
     eventKind},
    {"category", "TEXT", "the trace's \"cat\" (cpu_op, cuda_runtime, kernel, ...), NULL none",
     eventCategory},
    {"lane", "INTEGER", "the timeline row (lanes.id)", eventLane},
    {"thread", "INTEGER", "the thread id of a CPU lane, NULL on device lanes", eventThread},
    {"stream", "INTEGER", "the stream of a device lane, NULL otherwise", eventStream},
    {"device", "INTEGER", "the GPU of a device lane, NULL otherwise", eventDevice},
    {"rank", "INTEGER", "the rank of a distributed profile's lane, NULL otherwise", eventRank},
    {"depth", "INTEGER", "nesting depth on its lane, 0 at the top", eventDepth},
    {"parent_id", "INTEGER", "the enclosing event on its lane, NULL at the top", eventParent},
    {"step", "INTEGER", "the training step it belongs to, NULL none", eventStep},
    {"correlation", "INTEGER", "correlation id (runtime call <-> device work), NULL none",
     eventIdOf<&EventIds::correlation>},
    {"external_id", "INTEGER", "External id (CPU op <-> runtime call), NULL none",
     eventIdOf<&EventIds::external_id>},
};

class SliceRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Slices); }
    size_t size() const override { return context_.trace().events.size(); }
    int32_t eventAt(size_t pos) const override { return int32_t(pos); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    int64_t rowid(size_t pos) const override { return int64_t(pos); }
    SqlCell cell(size_t pos, int column) const override {
        return kSliceColumns[column].cell(EventRow{context_, int32_t(pos)});
    }
};

// The kernel's launch record (grid, block, registers...), NULL without one.
template <std::array<int32_t, 3> DeviceLaunch::*Dims, size_t I>
SqlCell launchDim(const EventRow& r) {
    const std::optional<DeviceLaunch> l = r.trace().launchOf(r.event);
    return l ? SqlCell::id(((*l).*Dims)[I]) : SqlCell{};
}
template <int32_t DeviceLaunch::*Field> SqlCell launchCount(const EventRow& r) {
    const std::optional<DeviceLaunch> l = r.trace().launchOf(r.event);
    return l ? SqlCell::id((*l).*Field) : SqlCell{};
}
template <float DeviceLaunch::*Field> SqlCell launchEstimate(const EventRow& r) {
    const std::optional<DeviceLaunch> l = r.trace().launchOf(r.event);
    if (!l || std::isnan((*l).*Field)) return {};
    return SqlCell::real((*l).*Field);
}
SqlCell kernelGbps(const EventRow& r) {
    const double gbps = r.trace().events[size_t(r.event)].gbps;
    return gbps > 0 ? SqlCell::real(gbps) : SqlCell{};
}
SqlCell kernelRuntime(const EventRow& r) {
    return SqlCell::id(r.c.launches().launcherOf(r.event));
}
SqlCell kernelOp(const EventRow& r) {
    return SqlCell::id(r.c.opAround(r.c.launches().launcherOf(r.event)));
}

constexpr SqlColumnOf<EventRow> kKernelColumns[] = {
    {"id", "INTEGER", "the event's number (slices.id)", eventId},
    {"ts", "INTEGER", "start, ns", eventTs},
    {"dur", "INTEGER", "duration, ns", eventDur},
    {"end_ts", "INTEGER", "ts + dur", eventEndTs},
    {"name", "TEXT", "kernel name", eventName},
    {"name_id", "INTEGER", "names.id", eventNameId},
    {"kind", "TEXT", "kernel, memcpy, memset or communication", eventKind},
    {"lane", "INTEGER", "lanes.id", eventLane},
    {"device", "INTEGER", "GPU", eventDevice},
    {"stream", "INTEGER", "stream", eventStream},
    {"rank", "INTEGER", "rank, NULL outside distributed profiles", eventRank},
    {"step", "INTEGER", "training step, NULL none", eventStep},
    {"correlation", "INTEGER", "correlation id, NULL none", eventIdOf<&EventIds::correlation>},
    {"external_id", "INTEGER", "External id, NULL none", eventIdOf<&EventIds::external_id>},
    {"grid_x", "INTEGER", "grid size", launchDim<&DeviceLaunch::grid, 0>},
    {"grid_y", "INTEGER", "", launchDim<&DeviceLaunch::grid, 1>},
    {"grid_z", "INTEGER", "", launchDim<&DeviceLaunch::grid, 2>},
    {"block_x", "INTEGER", "block size", launchDim<&DeviceLaunch::block, 0>},
    {"block_y", "INTEGER", "", launchDim<&DeviceLaunch::block, 1>},
    {"block_z", "INTEGER", "", launchDim<&DeviceLaunch::block, 2>},
    {"registers", "INTEGER", "registers per thread", launchCount<&DeviceLaunch::registers>},
    {"shared_memory", "INTEGER", "shared memory, bytes", launchCount<&DeviceLaunch::shared_memory>},
    {"blocks_per_sm", "REAL", "Kineto's blocks per SM",
     launchEstimate<&DeviceLaunch::blocks_per_sm>},
    {"occupancy", "REAL", "Kineto's estimated achieved occupancy, %",
     launchEstimate<&DeviceLaunch::occupancy>},
    {"gbps", "REAL", "a copy's or set's bandwidth, GB/s", kernelGbps},
    {"runtime_id", "INTEGER", "the runtime call that launched it (slices.id), NULL none",
     kernelRuntime},
    {"op_id", "INTEGER", "the CPU event around that call (slices.id), NULL none", kernelOp},
};

class KernelRows final : public SqlRows {
public:
    explicit KernelRows(const SqlTraceContext& c) : SqlRows(c) {
        const EventStore& events = c.trace().events;
        for (size_t i = 0; i < events.size(); ++i)
            if (isDeviceWork(c.trace(), events.core(i))) events_.push_back(int32_t(i));
    }
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Kernels); }
    size_t size() const override { return events_.size(); }
    int32_t eventAt(size_t pos) const override { return events_[pos]; }
    int64_t rowid(size_t pos) const override { return events_[pos]; }
    std::optional<PositionRange> rangeOfId(int64_t id) const override {
        const auto it = std::lower_bound(events_.begin(), events_.end(), id);
        const size_t pos = size_t(it - events_.begin());
        return PositionRange{pos, pos + (it != events_.end() && *it == id ? 1 : 0)};
    }
    SqlCell cell(size_t pos, int column) const override {
        return kKernelColumns[column].cell(EventRow{context_, events_[pos]});
    }

private:
    std::vector<int32_t> events_; // in store order
};

// A runtime call and a device event it launched.
struct LaunchRow {
    const SqlTraceContext& c;
    LaunchPair pair; // (device event, runtime call)

    int32_t kernel() const { return pair.first; }
    int32_t runtime() const { return pair.second; }
    const EventCore& core(int32_t event) const { return c.trace().events.core(size_t(event)); }
};

constexpr SqlColumnOf<LaunchRow> kLaunchColumns[] = {
    {"runtime_id", "INTEGER", "the runtime call (slices.id)",
     [](const LaunchRow& r) { return SqlCell::integer(r.runtime()); }},
    {"kernel_id", "INTEGER", "the device event (slices.id, kernels.id)",
     [](const LaunchRow& r) { return SqlCell::integer(r.kernel()); }},
    {"op_id", "INTEGER", "the CPU event around the call (slices.id), NULL none",
     [](const LaunchRow& r) { return SqlCell::id(r.c.opAround(r.runtime())); }},
    {"correlation", "INTEGER", "correlation id",
     [](const LaunchRow& r) {
         const std::optional<EventIds> ids = r.c.trace().events.ids(size_t(r.kernel()));
         return ids ? SqlCell::id(ids->correlation) : SqlCell{};
     }},
    {"launch_ts", "INTEGER", "start of the call, ns",
     [](const LaunchRow& r) { return SqlCell::integer(r.core(r.runtime()).start_ns); }},
    {"launch_dur", "INTEGER", "duration of the call, ns",
     [](const LaunchRow& r) { return SqlCell::integer(r.core(r.runtime()).dur_ns); }},
    {"kernel_ts", "INTEGER", "start of the device work, ns",
     [](const LaunchRow& r) { return SqlCell::integer(r.core(r.kernel()).start_ns); }},
    {"delay", "INTEGER", "kernel_ts - launch_ts, ns",
     [](const LaunchRow& r) {
         return SqlCell::integer(r.core(r.kernel()).start_ns - r.core(r.runtime()).start_ns);
     }},
};

class LaunchRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Launches); }
    size_t size() const override { return context_.launches().byDevice().size(); }
    SqlCell cell(size_t pos, int column) const override {
        return kLaunchColumns[column].cell(
            LaunchRow{context_, context_.launches().byDevice()[pos]});
    }
};

// slices and kernels: the event's number is the rowid; the export stores
// the names once (names) and keeps name_id.
template <class Rows, size_t N>
SqlTableDef eventTable(SqlTableId id, const char* name, const char* doc,
                       const SqlColumnOf<EventRow> (&columns)[N]) {
    return declareSqlTable<Rows>(
        {id, name, doc, "id", true, {{"name", "name_id", "names", "name"}}}, columns);
}

} // namespace

SqlTableDef slicesTable() {
    return eventTable<SliceRows>(SqlTableId::Slices, "slices",
                                 "every event of the trace, CPU and device, in (lane, ts) order",
                                 kSliceColumns);
}

SqlTableDef kernelsTable() {
    return eventTable<KernelRows>(
        SqlTableId::Kernels, "kernels",
        "the device work: kernels, memcpy, memset and communication kernels", kKernelColumns);
}

SqlTableDef launchesTable() {
    return declareSqlTable<LaunchRows>(
        {SqlTableId::Launches, "launches",
         "runtime call -> the device work it launched (by correlation)"},
        kLaunchColumns);
}

} // namespace ts
