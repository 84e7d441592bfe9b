// The small tables around the events: counters, memory, steps, names, lanes,
// trace_info, and the schema itself (tables, columns).
#include <deque>
#include <map>

#include "query/SqlRowTables.h"
#include "trace/LaneIndex.h"

namespace ts {
namespace {

// "cpu" or "cuda0": the device of a memory record.
std::string deviceLabel(const DeviceMemoryEvent& m) {
    if (m.device_type == 1) return "cuda" + std::to_string(std::max<int>(m.device_id, 0));
    if (m.device_type <= 0) return "cpu";
    return "device" + std::to_string(m.device_type) + "_" + std::to_string(m.device_id);
}

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
        if (pos < own()) {
            const MemorySample& s = context_.trace().memory[pos];
            return column == 0   ? SqlCell::integer(s.t_ns)
                   : column == 1 ? SqlCell::text("cpu_allocated")
                                 : SqlCell::real(double(s.live_bytes));
        }
        const bool reserved = pos - own() >= kineto().size();
        const size_t k = (pos - own()) % kineto().size();
        const DeviceMemoryEvent& m = kineto()[k];
        if (column == 0) return SqlCell::integer(m.t_ns);
        if (column == 1) return SqlCell::text(tracks_[track_of_[k] + (reserved ? 1 : 0)]);
        return SqlCell::real(double(reserved ? m.total_reserved : m.total_allocated));
    }

private:
    size_t own() const { return context_.trace().memory.size(); }
    const std::vector<DeviceMemoryEvent>& kineto() const { return context_.trace().kineto.memory; }

    std::deque<std::string> tracks_; // stable addresses for SqlCell::text
    std::vector<uint16_t> track_of_; // by memory record: its _allocated track
};

class MemoryRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Memory); }
    size_t size() const override {
        return context_.trace().memory.size() + context_.trace().kineto.memory.size();
    }
    SqlCell cell(size_t pos, int column) const override {
        const Trace& t = context_.trace();
        if (pos < t.memory.size()) {
            const MemorySample& s = t.memory[pos];
            switch (column) {
            case 0:
                return SqlCell::integer(s.t_ns);
            case 1:
                return SqlCell::text("cpu");
            case 4:
                return SqlCell::integer(s.delta_bytes);
            case 5:
                return SqlCell::integer(s.live_bytes);
            case 7:
                return s.event >= 0 ? SqlCell::integer(t.events.core(size_t(s.event)).lane)
                                    : SqlCell{};
            case 8:
                return SqlCell::id(s.event);
            }
            return {};
        }
        const DeviceMemoryEvent& m = t.kineto.memory[pos - t.memory.size()];
        switch (column) {
        case 0:
            return SqlCell::integer(m.t_ns);
        case 1:
            return m.device_type == 1   ? SqlCell::text("cuda")
                   : m.device_type <= 0 ? SqlCell::text("cpu")
                                        : SqlCell{};
        case 2:
            return SqlCell::id(m.device_id);
        case 3:
            return SqlCell::id(m.addr);
        case 4:
            return SqlCell::integer(m.bytes);
        case 5:
            return m.flags & DeviceMemoryEvent::kHasTotalAllocated
                       ? SqlCell::integer(m.total_allocated)
                       : SqlCell{};
        case 6:
            return SqlCell::id(m.total_reserved);
        case 7:
            return SqlCell::id(m.lane);
        case 8:
            return m.lane >= 0 ? SqlCell::id(context_.laneIndex().innermostAt(m.lane, m.t_ns))
                               : SqlCell{};
        }
        return {};
    }
};

class StepRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Steps); }
    size_t size() const override { return context_.trace().steps.size(); }
    SqlCell cell(size_t pos, int column) const override {
        const StepMark& s = context_.trace().steps[pos];
        const int64_t v[] = {s.step, s.start_ns, s.end_ns - s.start_ns, s.end_ns};
        return SqlCell::integer(v[column]);
    }
};

class NameRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Names); }
    size_t size() const override { return context_.trace().names.size(); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    SqlCell cell(size_t pos, int column) const override {
        return column == 0 ? SqlCell::integer(int64_t(pos))
                           : SqlCell::text(context_.trace().names[pos]);
    }
};

class StringRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Strings); }
    size_t size() const override { return context_.trace().strings.size(); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    SqlCell cell(size_t pos, int column) const override {
        return column == 0 ? SqlCell::integer(int64_t(pos))
                           : SqlCell::text(context_.trace().strings[pos]);
    }
};

class LaneRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Lanes); }
    size_t size() const override { return context_.trace().lanes.size(); }
    std::optional<PositionRange> rangeOfId(int64_t id) const override { return positionOf(id); }
    SqlCell cell(size_t pos, int column) const override {
        const TraceLane& l = context_.trace().lanes[pos];
        switch (column) {
        case 0:
            return SqlCell::integer(int64_t(pos));
        case 1:
            return SqlCell::text(l.name);
        case 2:
            return l.device ? SqlCell{} : SqlCell::integer(l.tid);
        case 3:
            return SqlCell::integer(l.device ? 1 : 0);
        case 4:
            return l.device ? SqlCell::id(l.gpu) : SqlCell{};
        case 5:
            return l.device ? SqlCell::id(l.stream) : SqlCell{};
        case 6:
            return SqlCell::id(context_.rankOf(int32_t(pos)));
        case 7: {
            const LaneIndex& index = context_.laneIndex();
            return SqlCell::integer(int64_t(index.end(int32_t(pos)) - index.begin(int32_t(pos))));
        }
        }
        return {};
    }
};

// Rows of text pairs built once (trace_info, tables, columns).
class TextRows final : public SqlRows {
public:
    TextRows(const SqlTraceContext& c, SqlTableId id) : SqlRows(c), id_(id) {
        if (id == SqlTableId::TraceInfo) addInfo(c.trace());
        for (const SqlTableDef& t : sqlTables()) {
            if (id == SqlTableId::Tables) add({t.name, t.doc});
            if (id == SqlTableId::Columns)
                for (const SqlColumn& col : t.columns)
                    add({t.name, col.name, col.type, col.doc});
        }
    }
    const SqlTableDef& def() const override { return sqlTable(id_); }
    size_t size() const override { return rows_.size(); }
    SqlCell cell(size_t pos, int column) const override {
        return SqlCell::text(rows_[pos][size_t(column)]);
    }

private:
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void addInfo(const Trace& t) {
        add({"source", t.source});
        add({"origin_ns", std::to_string(t.origin_ns)});
        add({"events", std::to_string(t.events.size())});
        add({"lanes", std::to_string(t.lanes.size())});
        add({"steps", std::to_string(t.steps.size())});
        for (const std::string& note : t.notes)
            add({"note", note});
        if (!t.kineto.framework.empty()) add({"framework", t.kineto.framework});
        if (!t.kineto.distributed_info.empty())
            add({"distributed_info", t.kineto.distributed_info});
        for (const DeviceProperties& d : t.kineto.devices)
            add({"device " + std::to_string(d.id),
                 d.name + ", " + std::to_string(d.total_global_mem) + " bytes, " +
                     std::to_string(d.num_sms) + " SMs, compute " +
                     std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)});
        add({"trainscope_version", TRAINSCOPE_VERSION});
    }

    SqlTableId id_;
    std::deque<std::vector<std::string>> rows_; // stable for SqlCell::text
};

} // namespace

std::unique_ptr<SqlRows> makeSideRows(const SqlTraceContext& c, SqlTableId id) {
    switch (id) {
    case SqlTableId::Counters:
        return std::make_unique<CounterRows>(c);
    case SqlTableId::Memory:
        return std::make_unique<MemoryRows>(c);
    case SqlTableId::Steps:
        return std::make_unique<StepRows>(c);
    case SqlTableId::Names:
        return std::make_unique<NameRows>(c);
    case SqlTableId::Strings:
        return std::make_unique<StringRows>(c);
    case SqlTableId::Lanes:
        return std::make_unique<LaneRows>(c);
    default:
        return std::make_unique<TextRows>(c, id);
    }
}

std::vector<std::unique_ptr<SqlRows>> makeSqlRows(const SqlTraceContext& c) {
    std::vector<std::unique_ptr<SqlRows>> out;
    for (const SqlTableDef& t : sqlTables()) {
        switch (t.id) {
        case SqlTableId::Slices:
            out.push_back(makeSliceRows(c));
            break;
        case SqlTableId::Kernels:
            out.push_back(makeKernelRows(c));
            break;
        case SqlTableId::Launches:
            out.push_back(makeLaunchRows(c));
            break;
        case SqlTableId::Args:
            out.push_back(makeArgRows(c));
            break;
        default:
            out.push_back(makeSideRows(c, t.id));
        }
    }
    return out;
}

} // namespace ts
