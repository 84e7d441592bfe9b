// annotateCosts(): applies the FLOP model to a finalized trace and attributes
// every computation to exactly one event (see FlopModel.h). It runs on every
// Kineto trace read without FLOPs (TraceBuilder::finish), so it is one pass
// with 5 bytes of scratch per event, and the model runs once per distinct
// (name, inputs): a training step calls the same ops on the same shapes.
#include <unordered_map>

#include "trace/FlopModel.h"

namespace ts {

namespace {

uint8_t familyBit(OpFamily family) {
    return static_cast<uint8_t>(1u << static_cast<uint32_t>(family));
}

uint64_t pairKey(uint32_t a, uint32_t b) {
    return (uint64_t(a) << 32) | b;
}

// The distinct costs of a trace; id 0 is "no cost".
class CostTable {
public:
    explicit CostTable(const Trace& trace) : trace_(trace) {}

    // Of an operator, by its name and interned inputs.
    uint32_t ofOperator(size_t i) {
        const int32_t row = trace_.events.signatureRow(i);
        if (row < 0) return 0;
        const OpSignature& sig = trace_.events.signatureAt(row);
        if (sig.shapes < 0) return 0;
        const uint32_t name = trace_.events.core(i).name;
        auto [it, added] = operators_.try_emplace(pairKey(name, uint32_t(row)), 0);
        if (!added) return it->second;
        OpInputs inputs;
        inputs.dims = parseDims(trace_.stringAt(sig.shapes));
        inputs.types = parseStringList(trace_.stringAt(sig.types));
        inputs.args = parseStringList(trace_.stringAt(sig.args));
        it->second = add(forwardOpCost(trace_.names[name], inputs));
        return it->second;
    }

    // Of a backward node, from the cost of the forward op it is linked to.
    uint32_t ofNode(size_t i, uint32_t forward) {
        if (forward == 0) return 0;
        const uint32_t name = trace_.events.core(i).name;
        auto [it, added] = nodes_.try_emplace(pairKey(name, forward), 0);
        if (added) it->second = add(backwardNodeCost(trace_.names[name], costs_[forward]));
        return it->second;
    }

    const OpCost& operator[](uint32_t id) const { return costs_[id]; }

private:
    uint32_t add(const OpCost& cost) {
        if (cost.flops <= 0) return 0;
        costs_.push_back(cost);
        return static_cast<uint32_t>(costs_.size() - 1);
    }

    const Trace& trace_;
    std::vector<OpCost> costs_{OpCost{}};
    std::unordered_map<uint64_t, uint32_t> operators_, nodes_;
};

// Each event's cost before attribution (ids into the table).
std::vector<uint32_t> rawCosts(const Trace& trace, CostTable& table) {
    std::vector<uint32_t> raw(trace.events.size(), 0);
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const EventKind kind = trace.events.core(i).kind;
        if (kind == EventKind::Operator) {
            raw[i] = table.ofOperator(i);
        } else if (kind == EventKind::Backward) {
            const int32_t link = trace.events.link(i);
            if (link >= 0 && trace.events.core(size_t(link)).kind == EventKind::Operator)
                raw[i] = table.ofNode(i, table.ofOperator(size_t(link)));
        }
    }
    return raw;
}

} // namespace

size_t annotateCosts(Trace& trace) {
    if (trace.events.anyFlops()) return 0;
    CostTable table(trace);
    const std::vector<uint32_t> raw = rawCosts(trace, table);
    // Children follow their parents in a finalized trace, so one backward
    // sweep sees every subtree before its root. `below` holds the families
    // that already carry FLOPs somewhere under each event.
    std::vector<uint8_t> below(trace.events.size(), 0);
    size_t counted_events = 0;
    for (size_t i = trace.events.size(); i-- > 0;) {
        const EventCore& e = trace.events.core(i);
        const OpCost& c = table[raw[i]];
        const bool counted_below =
            e.kind == EventKind::Backward ? below[i] != 0 : (below[i] & familyBit(c.family)) != 0;
        uint8_t mask = below[i];
        const bool counted = raw[i] != 0 && !counted_below;
        if (counted) {
            mask |= familyBit(c.family);
            trace.events.edit(i, [&](TraceEvent& w) { w.flops = c.flops, w.bytes = c.bytes; });
            ++counted_events;
        }
        if (e.parent >= 0) below[size_t(e.parent)] |= mask;
    }
    return counted_events;
}

} // namespace ts
