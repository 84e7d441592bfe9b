#include "query/SqlRows.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "analysis/LaunchIndex.h"
#include "trace/LaneIndex.h"

namespace ts {
namespace {

// "rank 3: thread 12" (RankTimeline's lane names) -> 3.
int32_t laneRank(const std::string& name) {
    constexpr std::string_view prefix = "rank ";
    if (name.compare(0, prefix.size(), prefix) != 0) return -1;
    int64_t rank = 0;
    size_t i = prefix.size();
    const size_t digits = i;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && rank < INT32_MAX)
        rank = rank * 10 + (name[i++] - '0');
    if (i == digits || i >= name.size() || name[i] != ':') return -1;
    return int32_t(rank);
}

} // namespace

SqlTraceContext::SqlTraceContext(const Trace& trace) : trace_(trace) {
    lane_rank_.reserve(trace.lanes.size());
    for (const TraceLane& lane : trace.lanes)
        lane_rank_.push_back(laneRank(lane.name));
}

SqlTraceContext::~SqlTraceContext() = default;

const LaunchIndex& SqlTraceContext::launches() const {
    if (!launches_) launches_ = std::make_unique<LaunchIndex>(LaunchIndex::build(trace_));
    return *launches_;
}

const LaneIndex& SqlTraceContext::laneIndex() const {
    if (!lane_index_) lane_index_ = std::make_unique<LaneIndex>(trace_);
    return *lane_index_;
}

int32_t SqlTraceContext::opAround(int32_t runtime) const {
    if (runtime < 0) return -1;
    return trace_.events.core(size_t(runtime)).parent;
}

const std::vector<uint32_t>& SqlTraceContext::nameRanks() const {
    if (!name_ranks_.empty() || trace_.names.empty()) return name_ranks_;
    std::vector<uint32_t> order(trace_.names.size());
    std::iota(order.begin(), order.end(), 0u);
    // Byte order, as SQLite's BINARY collation compares text.
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const std::string &x = trace_.names[a], &y = trace_.names[b];
        const int c = std::memcmp(x.data(), y.data(), std::min(x.size(), y.size()));
        return c != 0 ? c < 0 : x.size() < y.size();
    });
    name_ranks_.resize(order.size());
    for (size_t r = 0; r < order.size(); ++r)
        name_ranks_[order[r]] = uint32_t(r);
    return name_ranks_;
}

std::vector<std::unique_ptr<SqlRows>> makeSqlRows(const SqlTraceContext& context) {
    std::vector<std::unique_ptr<SqlRows>> out;
    for (const SqlTableDef& t : sqlTables())
        out.push_back(t.rows(context));
    return out;
}

EventOrder::EventOrder(const SqlRows& rows) : rows_(rows), trace_(rows.context().trace()) {
    const size_t lanes = trace_.lanes.size();
    lane_begin_.assign(lanes + 1, rows.size());
    longest_.assign(lanes, 0);
    // Positions follow the store's (lane, start) order: each lane is one run.
    for (size_t pos = rows.size(); pos-- > 0;) {
        const EventCore& e = trace_.events.core(size_t(rows.eventAt(pos)));
        lane_begin_[e.lane] = pos;
        longest_[e.lane] = std::max(longest_[e.lane], e.dur_ns);
    }
    for (size_t l = lanes; l-- > 0;)
        lane_begin_[l] = std::min(lane_begin_[l], lane_begin_[l + 1]);
}

PositionRange EventOrder::lane(int64_t lane) const {
    if (lane < 0 || lane >= lanes()) return {0, 0};
    return {lane_begin_[size_t(lane)], lane_begin_[size_t(lane) + 1]};
}

size_t EventOrder::firstFrom(PositionRange lane, int64_t ts) const {
    size_t lo = lane.first, hi = lane.second;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (trace_.events.core(size_t(rows_.eventAt(mid))).start_ns < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t EventOrder::longest(int64_t lane) const {
    return lane < 0 || lane >= lanes() ? 0 : longest_[size_t(lane)];
}

const std::vector<uint32_t>& EventOrder::byName() const {
    if (!by_name_.empty() || rows_.size() == 0) return by_name_;
    // A counting sort by name rank: two passes over the events, no compare.
    const std::vector<uint32_t>& rank = rows_.context().nameRanks();
    std::vector<size_t> start(rank.size() + 1, 0);
    for (size_t pos = 0; pos < rows_.size(); ++pos)
        ++start[rank[trace_.events.core(size_t(rows_.eventAt(pos))).name] + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    name_begin_.assign(rank.size(), 0);
    name_end_.assign(rank.size(), 0);
    for (size_t id = 0; id < rank.size(); ++id) {
        name_begin_[id] = start[rank[id]];
        name_end_[id] = start[rank[id] + 1];
    }
    by_name_.resize(rows_.size());
    std::vector<size_t> next(start.begin(), start.end() - 1);
    for (size_t pos = 0; pos < rows_.size(); ++pos)
        by_name_[next[rank[trace_.events.core(size_t(rows_.eventAt(pos))).name]]++] = uint32_t(pos);
    return by_name_;
}

PositionRange EventOrder::nameRange(int64_t name_id) const {
    byName();
    if (name_id < 0 || size_t(name_id) >= name_begin_.size()) return {0, 0};
    return {name_begin_[size_t(name_id)], name_end_[size_t(name_id)]};
}

} // namespace ts
