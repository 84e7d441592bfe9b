// annotateCosts(): applies the FLOP model to a finalized trace and attributes
// every computation to exactly one event (see FlopModel.h).
#include <map>
#include <tuple>

#include "profiling/FlopModel.h"

namespace ts {

namespace {

uint32_t familyBit(OpFamily family) {
    return 1u << static_cast<uint32_t>(family);
}

// Cost of each distinct (name, dims, types, args) combination, computed once.
class CostCache {
public:
    explicit CostCache(const Trace& trace) : trace_(trace) {}

    OpCost of(const TraceEvent& e) {
        if (e.kind != EventKind::Operator || e.shapes < 0) return {};
        const auto key = std::make_tuple(e.name, e.shapes, e.types, e.args);
        auto it = costs_.find(key);
        if (it != costs_.end()) return it->second;
        OpInputs inputs;
        inputs.dims = parseDims(trace_.stringAt(e.shapes));
        inputs.types = parseStringList(trace_.stringAt(e.types));
        inputs.args = parseStringList(trace_.stringAt(e.args));
        const OpCost cost = forwardOpCost(trace_.nameOf(e), inputs);
        costs_.emplace(key, cost);
        return cost;
    }

private:
    const Trace& trace_;
    std::map<std::tuple<uint32_t, int32_t, int32_t, int32_t>, OpCost> costs_;
};

std::vector<OpCost> rawCosts(const Trace& trace) {
    CostCache cache(trace);
    std::vector<OpCost> raw(trace.events.size());
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const TraceEvent& e = trace.events[i];
        if (e.kind == EventKind::Operator) {
            raw[i] = cache.of(e);
        } else if (e.kind == EventKind::Backward && e.link >= 0) {
            raw[i] = backwardNodeCost(trace.nameOf(e), cache.of(trace.events[e.link]));
        }
    }
    return raw;
}

} // namespace

void annotateCosts(Trace& trace) {
    for (const TraceEvent& e : trace.events)
        if (e.flops > 0) return;
    const std::vector<OpCost> raw = rawCosts(trace);
    // Children follow their parents in a finalized trace, so one backward
    // sweep sees every subtree before its root. `below` holds the families
    // that already carry FLOPs somewhere under each event.
    std::vector<uint32_t> below(trace.events.size(), 0);
    for (size_t i = trace.events.size(); i-- > 0;) {
        const EventCore& e = trace.events.core(i);
        const OpCost& c = raw[i];
        const bool counted_below =
            e.kind == EventKind::Backward ? below[i] != 0 : (below[i] & familyBit(c.family)) != 0;
        uint32_t mask = below[i];
        const bool counted = c.flops > 0 && !counted_below;
        if (counted) mask |= familyBit(c.family);
        // Written only where something changes: zero costs take no store row.
        const TraceEvent old = trace.events[i];
        const double flops = counted ? c.flops : 0, bytes = counted ? c.bytes : 0;
        if (old.flops != flops || old.bytes != bytes)
            trace.events.edit(i, [&](TraceEvent& w) { w.flops = flops, w.bytes = bytes; });
        if (e.parent >= 0) below[e.parent] |= mask;
    }
}

} // namespace ts
