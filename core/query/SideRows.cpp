// The tables around the events: counters, memory, steps and lanes.
#include <deque>
#include <map>

#include "query/SqlColumns.h"
#include "trace/LaneIndex.h"

namespace ts {
namespace {

// "cpu" or "cuda0": the device of a memory record.
std::string deviceLabel(const DeviceMemoryEvent& m) {
    if (m.device_type == 1) return "cuda" + std::to_string(std::max<int>(m.device_id, 0));
    if (m.device_type <= 0) return "cpu";
    return "device" + std::to_string(m.device_type) + "_" + std::to_string(m.device_id);
}

// A sample of one series; every cell is at hand.
struct CounterRow {
    int64_t ts;
    std::string_view track;
    double value;
};

constexpr SqlColumnOf<CounterRow> kCounterColumns[] = {
    {"ts", "INTEGER", "ns", [](const CounterRow& r) { return SqlCell::integer(r.ts); }},
    {"track", "TEXT", "the series", [](const CounterRow& r) { return SqlCell::text(r.track); }},
    {"value", "REAL", "its value from ts on (bytes)",
     [](const CounterRow& r) { return SqlCell::real(r.value); }},
};

// counters: Trainscope's own CPU memory samples, then per memory record of
// a Kineto trace the device's allocated bytes, then its reserved bytes.
class CounterRows final : public SqlRows {
public:
    explicit CounterRows(const SqlTraceContext& c) : SqlRows(c) {
        std::map<std::string, size_t> seen;
        for (const DeviceMemoryEvent& m : c.trace().kineto.memory) {
            const std::string device = deviceLabel(m);
            auto [it, added] = seen.emplace(device, tracks_.size());
            if (added) {
                tracks_.push_back(device + "_allocated");
                tracks_.push_back(device + "_reserved");
            }
            track_of_.push_back(uint16_t(it->second));
        }
    }
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Counters); }
    size_t size() const override { return own() + 2 * kineto().size(); }
    bool present(size_t pos) const override {
        if (pos < own()) return true;
        const size_t k = (pos - own()) % kineto().size();
        const DeviceMemoryEvent& m = kineto()[k];
        return pos - own() < kineto().size() ? m.flags & DeviceMemoryEvent::kHasTotalAllocated
                                             : m.total_reserved >= 0;
    }
    SqlCell cell(size_t pos, int column) const override {
        return kCounterColumns[column].cell(row(pos));
    }

private:
    size_t own() const { return context_.trace().memory.size(); }
    const std::vector<DeviceMemoryEvent>& kineto() const { return context_.trace().kineto.memory; }
    CounterRow row(size_t pos) const {
        if (pos < own()) {
            const MemorySample& s = context_.trace().memory[pos];
            return {s.t_ns, "cpu_allocated", double(s.live_bytes)};
        }
        const bool reserved = pos - own() >= kineto().size();
        const size_t k = (pos - own()) % kineto().size();
        const DeviceMemoryEvent& m = kineto()[k];
        return {m.t_ns, tracks_[track_of_[k] + (reserved ? 1 : 0)],
                double(reserved ? m.total_reserved : m.total_allocated)};
    }

    std::deque<std::string> tracks_; // stable addresses for SqlCell::text
    std::vector<uint16_t> track_of_; // by memory record: its _allocated track
};

// An allocation or free: one of Trainscope's own samples (CPU) or a
// Kineto memory record.
struct MemoryRow {
    const SqlTraceContext& c;
    const MemorySample* own;
    const DeviceMemoryEvent* kineto;
};

SqlCell memoryDeviceType(const MemoryRow& r) {
    if (r.own || r.kineto->device_type <= 0) return SqlCell::text("cpu");
    return r.kineto->device_type == 1 ? SqlCell::text("cuda") : SqlCell{};
}
SqlCell memoryLane(const MemoryRow& r) {
    if (r.kineto) return SqlCell::id(r.kineto->lane);
    return r.own->event >= 0 ? SqlCell::integer(r.c.trace().events.core(size_t(r.own->event)).lane)
                             : SqlCell{};
}
SqlCell memoryEvent(const MemoryRow& r) {
    if (r.own) return SqlCell::id(r.own->event);
    const DeviceMemoryEvent& m = *r.kineto;
    return m.lane >= 0 ? SqlCell::id(r.c.laneIndex().innermostAt(m.lane, m.t_ns)) : SqlCell{};
}

constexpr SqlColumnOf<MemoryRow> kMemoryColumns[] = {
    {"ts", "INTEGER", "ns",
     [](const MemoryRow& r) { return SqlCell::integer(r.own ? r.own->t_ns : r.kineto->t_ns); }},
    {"device_type", "TEXT", "cpu or cuda", memoryDeviceType},
    {"device", "INTEGER", "device index, NULL unknown",
     [](const MemoryRow& r) { return r.own ? SqlCell{} : SqlCell::id(r.kineto->device_id); }},
    {"addr", "INTEGER", "address, NULL unknown",
     [](const MemoryRow& r) { return r.own ? SqlCell{} : SqlCell::id(r.kineto->addr); }},
    {"bytes", "INTEGER", "+ allocated, - freed",
     [](const MemoryRow& r) {
         return SqlCell::integer(r.own ? r.own->delta_bytes : r.kineto->bytes);
     }},
    {"total_allocated", "INTEGER", "bytes allocated on the device after it, NULL unknown",
     [](const MemoryRow& r) {
         if (r.own) return SqlCell::integer(r.own->live_bytes);
         return r.kineto->flags & DeviceMemoryEvent::kHasTotalAllocated
                    ? SqlCell::integer(r.kineto->total_allocated)
                    : SqlCell{};
     }},
    {"total_reserved", "INTEGER", "bytes the allocator reserved after it, NULL unknown",
     [](const MemoryRow& r) { return r.own ? SqlCell{} : SqlCell::id(r.kineto->total_reserved); }},
    {"lane", "INTEGER", "the thread's lane, NULL unknown", memoryLane},
    {"event_id", "INTEGER", "the innermost event open on that thread then, NULL none", memoryEvent},
};

// Trainscope's own samples, then Kineto's records.
class MemoryRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Memory); }
    size_t size() const override {
        return context_.trace().memory.size() + context_.trace().kineto.memory.size();
    }
    SqlCell cell(size_t pos, int column) const override {
        const Trace& t = context_.trace();
        const MemoryRow row =
            pos < t.memory.size()
                ? MemoryRow{context_, &t.memory[pos], nullptr}
                : MemoryRow{context_, nullptr, &t.kineto.memory[pos - t.memory.size()]};
        return kMemoryColumns[column].cell(row);
    }
};

constexpr SqlColumnOf<StepMark> kStepColumns[] = {
    {"step", "INTEGER", "step number", [](const StepMark& s) { return SqlCell::integer(s.step); }},
    {"ts", "INTEGER", "start, ns", [](const StepMark& s) { return SqlCell::integer(s.start_ns); }},
    {"dur", "INTEGER", "ns",
     [](const StepMark& s) { return SqlCell::integer(s.end_ns - s.start_ns); }},
    {"end_ts", "INTEGER", "ts + dur", [](const StepMark& s) { return SqlCell::integer(s.end_ns); }},
};

class StepRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Steps); }
    size_t size() const override { return context_.trace().steps.size(); }
    SqlCell cell(size_t pos, int column) const override {
        return kStepColumns[column].cell(context_.trace().steps[pos]);
    }
};

struct LaneRow {
    const SqlTraceContext& c;
    int32_t id;

    const TraceLane& lane() const { return c.trace().lanes[size_t(id)]; }
};

constexpr SqlColumnOf<LaneRow> kLaneColumns[] = {
    {"id", "INTEGER", "lane", [](const LaneRow& r) { return SqlCell::integer(r.id); }},
    {"name", "TEXT", "as the timeline shows it",
     [](const LaneRow& r) { return SqlCell::text(r.lane().name); }},
    {"thread", "INTEGER", "thread id, NULL for device lanes",
     [](const LaneRow& r) { return laneThread(r.lane()); }},
    {"is_device", "INTEGER", "1 for a device stream",
     [](const LaneRow& r) { return SqlCell::integer(r.lane().device ? 1 : 0); }},
    {"device", "INTEGER", "GPU, NULL for CPU lanes",
     [](const LaneRow& r) { return laneDevice(r.lane()); }},
    {"stream", "INTEGER", "stream, NULL for CPU lanes",
     [](const LaneRow& r) { return laneStream(r.lane()); }},
    {"rank", "INTEGER", "rank, NULL outside distributed profiles",
     [](const LaneRow& r) { return SqlCell::id(r.c.rankOf(r.id)); }},
    {"events", "INTEGER", "how many events it holds",
     [](const LaneRow& r) {
         const LaneIndex& index = r.c.laneIndex();
         return SqlCell::integer(int64_t(index.end(r.id) - index.begin(r.id)));
     }},
};

class LaneRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Lanes); }
    size_t size() const override { return context_.trace().lanes.size(); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    SqlCell cell(size_t pos, int column) const override {
        return kLaneColumns[column].cell(LaneRow{context_, int32_t(pos)});
    }
};

} // namespace

SqlTableDef countersTable() {
    return declareSqlTable<CounterRows>(
        {SqlTableId::Counters, "counters",
         "time series: cpu_memory (own runs), gpuN_allocated / gpuN_reserved"},
        kCounterColumns);
}

SqlTableDef memoryTable() {
    return declareSqlTable<MemoryRows>(
        {SqlTableId::Memory, "memory", "allocations (bytes > 0) and frees (bytes < 0)"},
        kMemoryColumns);
}

SqlTableDef stepsTable() {
    return declareSqlTable<StepRows>(
        {SqlTableId::Steps, "steps", "training steps (ProfilerStep#N or the run's steps)"},
        kStepColumns);
}

SqlTableDef lanesTable() {
    return declareSqlTable<LaneRows>(
        {SqlTableId::Lanes, "lanes", "the timeline's rows: CPU threads and device streams", "id"},
        kLaneColumns);
}

} // namespace ts
