#include "trace/RankTimeline.h"

#include <algorithm>
#include <limits>
#include <string>

namespace ts {
namespace {

// Ids of one rank, shifted past the ranks before it.
struct IdOffset {
    int64_t offset = 0, next = 0;
    int64_t shift(int64_t id) {
        if (id < 0) return id;
        next = std::max(next, offset + id + 1);
        return offset + id;
    }
    void nextRank() { offset = next; }
};

class Merger {
public:
    explicit Merger(const std::vector<RankTrace>& ranks) : ranks_(ranks) {
        int64_t origin = std::numeric_limits<int64_t>::max();
        for (const RankTrace& r : ranks)
            origin = std::min(origin, r.trace.origin_ns);
        out_.origin_ns = ranks.empty() ? 0 : origin;
        out_.source = std::to_string(ranks.size()) + " ranks";
    }

    Trace take() {
        for (const RankTrace& r : ranks_) {
            add(r);
            correlation_.nextRank();
            external_.nextRank();
        }
        out_.finalize();
        return std::move(out_);
    }

private:
    int32_t stringOf(const Trace& from, int32_t index) {
        return index < 0 ? -1 : out_.internString(from.stringAt(index));
    }

    void add(const RankTrace& r) {
        const Trace& in = r.trace;
        const int64_t shift = in.origin_ns - out_.origin_ns;
        const std::string prefix = "rank " + std::to_string(r.rank) + ": ";
        std::vector<int32_t> lanes(in.lanes.size());
        for (size_t l = 0; l < in.lanes.size(); ++l) {
            const TraceLane& lane = in.lanes[l];
            // Lanes are keyed by tid: a fresh one per rank's lane keeps two
            // ranks' equal thread ids apart.
            lanes[l] = out_.laneFor(next_tid_++, lane.device, prefix + lane.name);
            out_.lanes[size_t(lanes[l])].gpu = lane.gpu;
            out_.lanes[size_t(lanes[l])].stream = lane.stream;
        }
        const auto base = static_cast<int32_t>(out_.events.size());
        for (size_t i = 0; i < in.events.size(); ++i) {
            TraceEvent e = in.events[i];
            e.name = out_.internName(in.nameOf(e));
            e.lane = lanes[size_t(e.lane)];
            e.start_ns += shift;
            e.parent = -1; // finalize() finds it again
            if (e.link >= 0) e.link += base;
            e.shapes = stringOf(in, e.shapes);
            e.types = stringOf(in, e.types);
            e.args = stringOf(in, e.args);
            const auto index = static_cast<int32_t>(i);
            KinetoExtras kineto;
            kineto.category = in.categoryOf(index);
            if (const auto ids = in.idsOf(index)) {
                kineto.correlation = correlation_.shift(ids->correlation);
                kineto.external_id = external_.shift(ids->external_id);
            }
            kineto.launch = in.launchOf(index);
            const std::string& stack = in.callStackOf(index);
            if (!stack.empty()) kineto.call_stack = out_.internString(stack);
            out_.events.push_back(e, kineto);
        }
        for (CollectiveTag tag : in.kineto.collective_tags) {
            tag.event += base;
            tag.group = stringOf(in, tag.group);
            out_.kineto.collective_tags.push_back(tag);
        }
        if (out_.steps.empty()) {
            for (StepMark m : in.steps) {
                m.start_ns += shift;
                m.end_ns += shift;
                out_.steps.push_back(m);
            }
            out_.steps_from = in.steps_from;
        }
        if (out_.kineto.devices.empty()) out_.kineto.devices = in.kineto.devices;
        for (const std::string& note : in.notes)
            out_.notes.push_back(prefix + note);
    }

    const std::vector<RankTrace>& ranks_;
    Trace out_;
    int64_t next_tid_ = 1;
    IdOffset correlation_, external_;
};

} // namespace

Trace mergeRankTraces(const std::vector<RankTrace>& ranks) {
    return Merger(ranks).take();
}

} // namespace ts
