#include "timeline/TimelineLayout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts::gui {
namespace {

// Boxes narrower than this are merged with their neighbours in the same pixel.
constexpr double kMinBoxPx = 1.0;
// Bound on the candidates a hit test looks at (dense, zoomed-out rows).
constexpr int kMaxHitCandidates = 4096;

// First index at or after `from` of ascending `starts` that is >= t,
// galloping outward from `from`: the next boundary is usually near.
size_t gallopTo(const std::vector<int64_t>& starts, size_t from, double t) {
    size_t lo = from, hi = from, step = 1;
    while (hi < starts.size() && double(starts[hi]) < t) {
        lo = hi + 1;
        hi = from + step;
        step <<= 1;
    }
    hi = std::min(hi, starts.size());
    lo = std::min(lo, hi);
    return size_t(std::lower_bound(starts.begin() + ptrdiff_t(lo), starts.begin() + ptrdiff_t(hi),
                                   t, [](int64_t v, double x) { return double(v) < x; }) -
                  starts.begin());
}

// First index at or after `from` whose start is >= t. Gallops over the row's
// sampled starts, then bisects the one block of kSampleStride events left:
// the samples are contiguous, while each event's start is a scattered
// 32-byte record (a cache miss on a large trace).
size_t firstStartingFrom(const TimelineLayout::Row& row, const EventStore& events, size_t from,
                         double t) {
    constexpr size_t kStride = TimelineLayout::kSampleStride;
    const size_t n = row.ids.size();
    const size_t first_k = from / kStride + 1;                // the first sample after `from`
    const size_t k = gallopTo(row.sampled_start, first_k, t); // samples[k]: start of k * kStride
    // Samples first_k .. k-1 start before t and sample k (if any) at or after
    // it, so the answer lies in [lo, hi].
    size_t lo = k > first_k ? std::max(from, (k - 1) * kStride + 1) : from;
    size_t hi = std::min(n, k * kStride);
    auto start = [&](size_t i) { return double(events.core(size_t(row.ids[i])).start_ns); };
    while (lo < hi) { // the first in [lo, hi) starting at or after t
        const size_t mid = lo + (hi - lo) / 2;
        if (start(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// First block at or after `from` starting at or after t.
size_t firstBlockStartingFrom(const TimelineLayout::Row& row, size_t from, double t) {
    return gallopTo(row.block_start, from, t);
}

// Events from pixel x0 on, ending by `end_ns` at the latest, as one box at
// least a pixel wide; it joins the row's previous narrow box when they touch,
// so that dense stretches become one box instead of one per pixel column.
void addNarrowBox(std::vector<TimelineLayout::Box>& out, const TimelineViewport& view,
                  int row_index, double x0, int64_t end_ns, int32_t first_event, int32_t count) {
    const double end_x = std::min(view.xOf(double(end_ns)), view.width_px + 1.0);
    const auto box_x0 = float(std::max(std::floor(x0), -1.0));
    const auto box_x1 = float(std::max(std::floor(x0) + 1.0, end_x));
    TimelineLayout::Box* last = out.empty() ? nullptr : &out.back();
    if (last && last->row == row_index && last->narrow && last->x1 >= box_x0) {
        last->x1 = std::max(last->x1, box_x1);
        last->merged += count;
    } else {
        out.push_back({box_x0, box_x1, row_index, first_event, count, true});
    }
}

// Appends the summaries of a row's event at index `i` (ids in start order):
// the running latest end, every kSampleStride-th start and the kBlock-event
// blocks' starts and latest ends (the last block is closed by closeRow).
struct RowFill {
    int64_t running = std::numeric_limits<int64_t>::min();
    int64_t last_start = std::numeric_limits<int64_t>::min();
    bool sorted = true;

    void add(TimelineLayout::Row& row, size_t i, const EventCore& e) {
        running = std::max(running, e.end_ns());
        row.max_end.push_back(running);
        if (i % TimelineLayout::kSampleStride == 0) row.sampled_start.push_back(e.start_ns);
        if (i % TimelineLayout::kBlock == 0) row.block_start.push_back(e.start_ns);
        if (i % TimelineLayout::kBlock == TimelineLayout::kBlock - 1)
            row.block_end.push_back(running);
    }
    void closeRow(TimelineLayout::Row& row) const {
        if (row.ids.size() % TimelineLayout::kBlock != 0) row.block_end.push_back(running);
    }
};

void reserveRow(TimelineLayout::Row& row, size_t n) {
    row.ids.reserve(n);
    row.max_end.reserve(n);
    row.sampled_start.reserve((n + TimelineLayout::kSampleStride - 1) /
                              TimelineLayout::kSampleStride);
    row.block_start.reserve((n + TimelineLayout::kBlock - 1) / TimelineLayout::kBlock);
    row.block_end.reserve(row.block_start.capacity());
}

// A row whose events did not come in start order: sorted, then summarised again.
void sortRow(TimelineLayout::Row& row, const Trace& trace) {
    std::stable_sort(row.ids.begin(), row.ids.end(), [&](int32_t a, int32_t b) {
        return trace.events.core(size_t(a)).start_ns < trace.events.core(size_t(b)).start_ns;
    });
    row.max_end.clear();
    row.sampled_start.clear();
    row.block_start.clear();
    row.block_end.clear();
    RowFill fill;
    for (size_t i = 0; i < row.ids.size(); ++i)
        fill.add(row, i, trace.events.core(size_t(row.ids[i])));
    fill.closeRow(row);
}

} // namespace

void TimelineLayout::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    rows_.clear();
    lanes_.clear();
    counter_rows_ = 0;
    start_ns_ = 0;
    end_ns_ = 1;
    if (!trace_) {
        computeYs();
        return;
    }
    const Trace& t = *trace_;
    // Events per lane and depth: each row is sized once before it is filled.
    std::vector<std::vector<size_t>> counts(t.lanes.size());
    for (size_t i = 0; i < t.events.size(); ++i) {
        const EventCore& e = t.events.core(i);
        if (size_t(e.lane) >= counts.size() || e.depth < 0) continue;
        std::vector<size_t>& lane = counts[size_t(e.lane)];
        if (lane.size() <= size_t(e.depth)) lane.resize(size_t(e.depth) + 1);
        ++lane[size_t(e.depth)];
    }
    std::vector<int> lane_first_row(t.lanes.size(), -1);
    for (size_t lane = 0; lane < t.lanes.size(); ++lane) {
        if (counts[lane].empty()) continue; // lanes without events take no room
        Lane block;
        block.first_row = int(rows_.size());
        block.row_count = int(counts[lane].size());
        lane_first_row[lane] = block.first_row;
        for (size_t d = 0; d < counts[lane].size(); ++d) {
            Row row;
            row.lane = int(lane);
            row.depth = int(d);
            reserveRow(row, counts[lane][d]);
            rows_.push_back(std::move(row));
        }
        lanes_.push_back(block);
    }

    // One pass in store order, which is start order within a row for the
    // traces the reader builds: a row found out of order is sorted after it.
    // (Reading each row's records again was most of the 0.1 s this took on
    // the GUI thread for 2.8 M events.)
    std::vector<RowFill> fills(rows_.size());
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < t.events.size(); ++i) {
        const EventCore& e = t.events.core(i); // the 32-byte record: this runs per event
        if (size_t(e.lane) >= t.lanes.size() || e.depth < 0) continue;
        const size_t r = size_t(lane_first_row[size_t(e.lane)] + e.depth);
        Row& row = rows_[r];
        RowFill& fill = fills[r];
        fill.sorted = fill.sorted && e.start_ns >= fill.last_start;
        fill.last_start = e.start_ns;
        fill.add(row, row.ids.size(), e);
        row.ids.push_back(int32_t(i));
        lo = std::min(lo, e.start_ns);
        hi = std::max(hi, e.end_ns());
    }
    for (size_t r = 0; r < rows_.size(); ++r)
        if (fills[r].sorted)
            fills[r].closeRow(rows_[r]);
        else
            sortRow(rows_[r], t);
    if (lo <= hi) {
        start_ns_ = lo;
        end_ns_ = std::max(hi, lo + 1);
    }
    computeYs();
}

size_t TimelineLayout::memoryBytes() const {
    size_t bytes = rows_.capacity() * sizeof(Row) + lanes_.capacity() * sizeof(Lane);
    for (const Row& row : rows_)
        bytes += row.ids.capacity() * sizeof(int32_t) + row.max_end.capacity() * sizeof(int64_t) +
                 row.sampled_start.capacity() * sizeof(int64_t) +
                 (row.block_start.capacity() + row.block_end.capacity()) * sizeof(int64_t);
    return bytes;
}

void TimelineLayout::setRowHeight(int px) {
    row_height_ = std::max(4, px);
    computeYs();
}

void TimelineLayout::setCounterRows(int count) {
    counter_rows_ = std::max(0, count);
    computeYs();
}

int TimelineLayout::counterAt(double y) const {
    if (y < 0) return -1;
    const int index = int(y) / (counterHeight() + kLaneGap);
    const bool inside = y < counterY(index) + counterHeight();
    return index < counter_rows_ && inside ? index : -1;
}

void TimelineLayout::computeYs() {
    int y = counterY(counter_rows_);
    for (Lane& block : lanes_) {
        block.y = y;
        block.height = block.row_count * row_height_;
        for (int r = 0; r < block.row_count; ++r)
            rows_[size_t(block.first_row + r)].y = y + r * row_height_;
        y += block.height + kLaneGap;
    }
    content_height_ = y;
}

int TimelineLayout::rowAt(double y) const {
    const auto it = std::upper_bound(lanes_.begin(), lanes_.end(), y,
                                     [](double v, const Lane& b) { return v < double(b.y); });
    if (it == lanes_.begin()) return -1;
    const Lane& block = *std::prev(it);
    const int r = int(std::floor((y - block.y) / row_height_));
    return r >= 0 && r < block.row_count ? block.first_row + r : -1;
}

std::vector<int32_t> TimelineLayout::lanesBetween(double y0, double y1) const {
    std::vector<int32_t> out;
    for (const Lane& block : lanes_)
        if (block.y <= std::max(y0, y1) && block.y + block.height >= std::min(y0, y1))
            out.push_back(rows_[size_t(block.first_row)].lane);
    return out;
}

int TimelineLayout::rowOf(int32_t event) const {
    if (!trace_ || event < 0 || size_t(event) >= trace_->events.size()) return -1;
    const EventCore& e = trace_->events.core(size_t(event));
    for (const Lane& block : lanes_)
        if (rows_[size_t(block.first_row)].lane == e.lane)
            return e.depth < block.row_count ? block.first_row + e.depth : -1;
    return -1;
}

size_t TimelineLayout::firstEndingAfter(const Row& row, double t_ns) const {
    return size_t(std::lower_bound(row.max_end.begin(), row.max_end.end(), t_ns,
                                   [](int64_t end, double t) { return double(end) < t; }) -
                  row.max_end.begin());
}

void TimelineLayout::collectBoxes(const TimelineViewport& view, double y0, double y1,
                                  std::vector<Box>& out) const {
    out.clear();
    for (size_t r = 0; r < rows_.size(); ++r) {
        const Row& row = rows_[r];
        if (row.y + row_height_ <= y0 || row.y >= y1) continue;
        collectRow(view, int(r), out);
    }
}

// Walks one row left to right. An event at least kMinBoxPx wide is one box;
// narrower ones are merged with every event starting in the same pixel column
// (and with the previous merged box when they touch), and the walk jumps
// (galloping search) to the first event of the next column.
void TimelineLayout::collectRow(const TimelineViewport& view, int row_index,
                                std::vector<Box>& out) const {
    const Row& row = rows_[size_t(row_index)];
    const double t1 = view.endNs();
    size_t i = firstEndingAfter(row, view.start_ns);
    const size_t n = row.ids.size();
    const EventStore& events = trace_->events;
    if (level_of_detail_ && i < n) {
        // Roughly how many events are in view: blocks starting before t1.
        const size_t blocks_in = firstBlockStartingFrom(row, i / kBlock, t1);
        if (double(blocks_in * kBlock) - double(i) >= kCoarseEventsPerPx * view.width_px) {
            const size_t end = firstStartingFrom(row, events, i, t1);
            return collectRowCoarse(view, row_index, i, end, out);
        }
    }
    while (i < n && double(startOf(row, i)) < t1) {
        const double x0 = view.xOf(double(startOf(row, i)));
        const double x1 = view.xOf(double(endOf(row, i)));
        if (x1 - x0 >= kMinBoxPx) {
            out.push_back({float(std::max(x0, -1.0)), float(std::min(x1, view.width_px + 1.0)),
                           row_index, row.ids[i], 1, false});
            ++i;
            continue;
        }
        const double column_end_t = view.timeAt(std::floor(x0) + 1.0);
        const size_t j = firstStartingFrom(row, events, i, column_end_t);
        const size_t last = std::max(j, i + 1) - 1;
        addNarrowBox(out, view, row_index, x0, row.max_end[last], row.ids[i],
                     int32_t(last - i + 1));
        i = last + 1;
    }
}

// Level of detail: a row with many events per pixel in view is grouped at
// block boundaries, reading only the row's block starts and ends. A box runs
// from its first event to the latest end of its events, as in collectRow, so
// the pixels drawn are the same; what changes is only which box an event
// near a column's edge joins (up to kBlock - 1 events that start in the next
// column), and that an event a pixel wide among them is drawn merged instead
// of alone. Events [first, end) are the visible ones, each counted once.
void TimelineLayout::collectRowCoarse(const TimelineViewport& view, int row_index, size_t first,
                                      size_t end, std::vector<Box>& out) const {
    const Row& row = rows_[size_t(row_index)];
    size_t i = first;
    while (i < end) {
        const int64_t start = i % kBlock == 0 ? row.block_start[i / kBlock] : startOf(row, i);
        const double x0 = view.xOf(double(start));
        const double column_end_t = view.timeAt(std::floor(x0) + 1.0);
        // Block b starts after i; the events of block b - 1 past the column
        // join this box. Only when block b starts in the next column (which
        // its own box then covers) are the pixels the same as with the exact
        // edge: across a gap, or at the end of the view, search it.
        const size_t b = firstBlockStartingFrom(row, i / kBlock + 1, column_end_t);
        const bool next_column =
            b * kBlock < end && view.xOf(double(row.block_start[b])) < std::floor(x0) + 2.0;
        const size_t j =
            next_column
                ? b * kBlock
                : std::clamp(firstStartingFrom(row, trace_->events, i, column_end_t), i + 1, end);
        const size_t last = j - 1;
        const int64_t last_end = last % kBlock == kBlock - 1 || last + 1 == row.ids.size()
                                     ? row.block_end[last / kBlock]
                                     : row.max_end[last];
        addNarrowBox(out, view, row_index, x0, last_end, row.ids[i], int32_t(j - i));
        i = j;
    }
}

int32_t TimelineLayout::hitTest(const TimelineViewport& view, double x, double y,
                                double tolerance_px) const {
    const int r = rowAt(y);
    if (r < 0 || !trace_) return -1;
    const Row& row = rows_[size_t(r)];
    const double t = view.timeAt(x);
    const double tol = tolerance_px * view.ns_per_px;
    int32_t best = -1;
    double best_distance = std::numeric_limits<double>::max();
    size_t i = firstEndingAfter(row, t - tol);
    for (int seen = 0;
         i < row.ids.size() && double(startOf(row, i)) <= t + tol && seen < kMaxHitCandidates;
         ++i, ++seen) {
        const double s = double(startOf(row, i)), end = double(endOf(row, i));
        const double distance = t < s ? s - t : t > end ? t - end : 0.0;
        if (distance < best_distance || (distance == 0 && best_distance == 0)) {
            // Inside several (overlapping import)? The later-starting one is the narrower.
            best_distance = distance;
            best = row.ids[i];
        }
    }
    return best_distance <= tol ? best : -1;
}

std::vector<int32_t> TimelineLayout::childrenOf(int32_t event) const {
    std::vector<int32_t> children;
    const int r = rowOf(event);
    if (r < 0 || size_t(r) + 1 >= rows_.size()) return children;
    const Row& below = rows_[size_t(r) + 1];
    if (below.lane != rows_[size_t(r)].lane) return children;
    const EventCore& e = trace_->events.core(size_t(event));
    for (size_t i = firstStartingFrom(below, trace_->events, 0, double(e.start_ns));
         i < below.ids.size() && startOf(below, i) <= e.end_ns(); ++i)
        if (trace_->events.core(size_t(below.ids[i])).parent == event)
            children.push_back(below.ids[i]);
    return children;
}

} // namespace ts::gui
