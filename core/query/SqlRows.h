#pragma once
// The rows of the SQL tables over a Trace, without SQLite: each table is a
// list of positions whose cells are read from the trace where it lies (no
// copy, no import). The virtual tables (TraceVtab.cpp) serve them to
// SQLite; the export writes them into a file. Side indexes (launches, the
// event open at a memory record) are built on first use.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "query/SqlSchema.h"
#include "trace/Trace.h"

namespace ts {

class LaunchIndex;
class LaneIndex;

struct SqlCell {
    enum Type : uint8_t { Null, Int, Real, Text } type = Null;
    int64_t i = 0;
    double d = 0;
    std::string_view s; // Text: points into the trace or a literal (lives as long as it)

    static SqlCell integer(int64_t v) { return {Int, v, 0, {}}; }
    static SqlCell real(double v) { return {Real, 0, v, {}}; }
    static SqlCell text(std::string_view v) { return {Text, 0, 0, v}; }
    // NULL for the "none" value (-1, NaN, empty).
    static SqlCell id(int64_t v) { return v < 0 ? SqlCell{} : integer(v); }
    static SqlCell optionalText(std::string_view v) { return v.empty() ? SqlCell{} : text(v); }
};

using PositionRange = std::pair<size_t, size_t>; // [first, second)

// What several tables share, built when first asked for.
class SqlTraceContext {
public:
    explicit SqlTraceContext(const Trace& trace);
    ~SqlTraceContext();
    const Trace& trace() const { return trace_; }
    // The rank of a lane ("rank 3: ..." of a distributed profile), -1 none.
    int32_t rankOf(int32_t lane) const { return lane_rank_[size_t(lane)]; }
    const LaunchIndex& launches() const;
    const LaneIndex& laneIndex() const;
    // The CPU event around a runtime call (its parent), -1 none.
    int32_t opAround(int32_t runtime) const;
    // Each name's place in byte order (BINARY collation), by name id.
    const std::vector<uint32_t>& nameRanks() const;

private:
    const Trace& trace_;
    std::vector<int32_t> lane_rank_;
    mutable std::unique_ptr<LaunchIndex> launches_;
    mutable std::unique_ptr<LaneIndex> lane_index_;
    mutable std::vector<uint32_t> name_ranks_;
};

class SqlRows {
public:
    explicit SqlRows(const SqlTraceContext& context) : context_(context) {}
    virtual ~SqlRows() = default;
    virtual const SqlTableDef& def() const = 0;
    virtual size_t size() const = 0;
    // Some positions hold no row (args: a field the event does not have).
    virtual bool present(size_t) const { return true; }
    virtual int64_t rowid(size_t pos) const { return int64_t(pos); }
    // def().columns[column]'s cell: the getter its table declares with it.
    virtual SqlCell cell(size_t pos, int column) const = 0;
    // The positions with `id` (the table's rowid column or args' event_id).
    virtual std::optional<PositionRange> rangeOfId(int64_t) const { return std::nullopt; }
    // Tables of events in store order (slices, kernels): the event at a
    // position, increasing with it; -1 for the others.
    virtual int32_t eventAt(size_t) const { return -1; }
    bool eventOrdered() const {
        return def().id == SqlTableId::Slices || def().id == SqlTableId::Kernels;
    }
    const SqlTraceContext& context() const { return context_; }

protected:
    // rangeOfId of a table whose position is its id.
    std::optional<PositionRange> positionOf(int64_t id) const {
        if (id < 0 || uint64_t(id) >= size()) return PositionRange{0, 0};
        return PositionRange{size_t(id), size_t(id) + 1};
    }

    const SqlTraceContext& context_;
};

// One object per table over one trace, in sqlTables() order.
std::vector<std::unique_ptr<SqlRows>> makeSqlRows(const SqlTraceContext& context);

// What the planner of an event-ordered table searches: a lane's positions,
// the first position of a lane from a time, the longest event of a lane
// (so that "end_ts > t" becomes "ts > t - longest"), and the positions in
// name order (GROUP BY name without a sort).
class EventOrder {
public:
    explicit EventOrder(const SqlRows& rows);
    PositionRange lane(int64_t lane) const;
    size_t firstFrom(PositionRange lane, int64_t ts) const;
    int64_t longest(int64_t lane) const;
    int64_t lanes() const { return int64_t(lane_begin_.size()) - 1; }
    // Positions by (name in byte order, position); built on first use.
    const std::vector<uint32_t>& byName() const;
    // Where a name's positions lie in byName().
    PositionRange nameRange(int64_t name_id) const;

private:
    const SqlRows& rows_;
    const Trace& trace_;
    std::vector<size_t> lane_begin_;
    std::vector<int64_t> longest_;
    mutable std::vector<uint32_t> by_name_;
    mutable std::vector<size_t> name_begin_; // by name id: first place in by_name_
    mutable std::vector<size_t> name_end_;
};

} // namespace ts
