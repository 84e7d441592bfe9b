// The tables of events: slices (every event), kernels (the device work) and
// launches (runtime call -> device work).
#include <cmath>

#include "analysis/LaunchIndex.h"
#include "query/SqlRowTables.h"

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

SqlCell realOrNull(double v) {
    return std::isnan(v) ? SqlCell{} : SqlCell::real(v);
}

// The columns slices and kernels share, by name.
enum class EventColumn {
    Id,
    Ts,
    Dur,
    EndTs,
    Name,
    NameId,
    Kind,
    Category,
    Lane,
    Thread,
    Stream,
    Device,
    Rank,
    Depth,
    Parent,
    Step,
    Correlation,
    External
};

SqlCell eventCell(const SqlTraceContext& c, int32_t event, EventColumn column) {
    const Trace& t = c.trace();
    const EventCore& e = t.events.core(size_t(event));
    const TraceLane& lane = t.lanes[e.lane];
    switch (column) {
    case EventColumn::Id:
        return SqlCell::integer(event);
    case EventColumn::Ts:
        return SqlCell::integer(e.start_ns);
    case EventColumn::Dur:
        return SqlCell::integer(e.dur_ns);
    case EventColumn::EndTs:
        return SqlCell::integer(e.end_ns());
    case EventColumn::Name:
        return SqlCell::text(t.names[e.name]);
    case EventColumn::NameId:
        return SqlCell::integer(e.name);
    case EventColumn::Kind:
        return SqlCell::text(toString(e.kind));
    case EventColumn::Category:
        return e.category == KinetoCategory::None ? SqlCell{} : SqlCell::text(toString(e.category));
    case EventColumn::Lane:
        return SqlCell::integer(e.lane);
    case EventColumn::Thread:
        return lane.device ? SqlCell{} : SqlCell::integer(lane.tid);
    case EventColumn::Stream:
        return lane.device ? SqlCell::id(lane.stream) : SqlCell{};
    case EventColumn::Device:
        return lane.device ? SqlCell::id(lane.gpu) : SqlCell{};
    case EventColumn::Rank:
        return SqlCell::id(c.rankOf(e.lane));
    case EventColumn::Depth:
        return SqlCell::integer(e.depth);
    case EventColumn::Parent:
        return SqlCell::id(e.parent);
    case EventColumn::Step:
        return SqlCell::id(t.events.step(size_t(event)));
    case EventColumn::Correlation:
    case EventColumn::External: {
        const std::optional<EventIds> ids = t.events.ids(size_t(event));
        if (!ids) return {};
        return SqlCell::id(column == EventColumn::Correlation ? ids->correlation
                                                              : ids->external_id);
    }
    }
    return {};
}

class SliceRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Slices); }
    size_t size() const override { return context_.trace().events.size(); }
    int32_t eventAt(size_t pos) const override { return int32_t(pos); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    int64_t rowid(size_t pos) const override { return int64_t(pos); }
    SqlCell cell(size_t pos, int column) const override {
        return eventCell(context_, int32_t(pos), EventColumn(column));
    }
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
    SqlCell cell(size_t pos, int column) const override;

private:
    std::vector<int32_t> events_; // in store order
};

SqlCell KernelRows::cell(size_t pos, int column) const {
    const int32_t event = events_[pos];
    // id .. name_id as in slices, then kind, lane, device, stream, rank,
    // step, correlation, external_id, then the launch's.
    static constexpr EventColumn kShared[] = {
        EventColumn::Id,          EventColumn::Ts,      EventColumn::Dur,  EventColumn::EndTs,
        EventColumn::Name,        EventColumn::NameId,  EventColumn::Kind, EventColumn::Lane,
        EventColumn::Device,      EventColumn::Stream,  EventColumn::Rank, EventColumn::Step,
        EventColumn::Correlation, EventColumn::External};
    constexpr int shared = int(std::size(kShared));
    if (column < shared) return eventCell(context_, event, kShared[column]);
    const Trace& t = context_.trace();
    const int launch_column = column - shared;
    if (launch_column == 10) { // gbps
        const double gbps = t.events[size_t(event)].gbps;
        return gbps > 0 ? SqlCell::real(gbps) : SqlCell{};
    }
    if (launch_column >= 11) { // runtime_id, op_id
        const int32_t runtime = context_.launches().launcherOf(event);
        return SqlCell::id(launch_column == 11 ? runtime : context_.opAround(runtime));
    }
    const std::optional<DeviceLaunch> l = t.launchOf(event);
    if (!l) return {};
    switch (launch_column) {
    case 0:
    case 1:
    case 2:
        return SqlCell::id(l->grid[size_t(launch_column)]);
    case 3:
    case 4:
    case 5:
        return SqlCell::id(l->block[size_t(launch_column - 3)]);
    case 6:
        return SqlCell::id(l->registers);
    case 7:
        return SqlCell::id(l->shared_memory);
    case 8:
        return realOrNull(l->blocks_per_sm);
    case 9:
        return realOrNull(l->occupancy);
    }
    return {};
}

class LaunchRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Launches); }
    size_t size() const override { return context_.launches().byDevice().size(); }
    SqlCell cell(size_t pos, int column) const override {
        const LaunchPair& p = context_.launches().byDevice()[pos]; // (device, runtime)
        const EventStore& events = context_.trace().events;
        const EventCore &kernel = events.core(size_t(p.first)),
                        &runtime = events.core(size_t(p.second));
        switch (column) {
        case 0:
            return SqlCell::integer(p.second);
        case 1:
            return SqlCell::integer(p.first);
        case 2:
            return SqlCell::id(context_.opAround(p.second));
        case 3: {
            const std::optional<EventIds> ids = events.ids(size_t(p.first));
            return ids ? SqlCell::id(ids->correlation) : SqlCell{};
        }
        case 4:
            return SqlCell::integer(runtime.start_ns);
        case 5:
            return SqlCell::integer(runtime.dur_ns);
        case 6:
            return SqlCell::integer(kernel.start_ns);
        case 7:
            return SqlCell::integer(kernel.start_ns - runtime.start_ns);
        }
        return {};
    }
};

} // namespace

std::unique_ptr<SqlRows> makeSliceRows(const SqlTraceContext& c) {
    return std::make_unique<SliceRows>(c);
}
std::unique_ptr<SqlRows> makeKernelRows(const SqlTraceContext& c) {
    return std::make_unique<KernelRows>(c);
}
std::unique_ptr<SqlRows> makeLaunchRows(const SqlTraceContext& c) {
    return std::make_unique<LaunchRows>(c);
}

} // namespace ts
