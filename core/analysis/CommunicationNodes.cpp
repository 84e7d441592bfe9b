#include "analysis/CommunicationNodes.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "trace/KinetoNames.h"

namespace ts {

namespace {

int64_t typeSize(const std::string& type, bool plugin_compatible) {
    static const std::unordered_map<std::string, int64_t> kPlugin{
        {"long int", 8},  {"float", 4},         {"int", 4},
        {"c10::Half", 2}, {"c10::BFloat16", 2}, {"unsigned char", 1}};
    static const std::unordered_map<std::string, int64_t> kMore{{"long", 8},
                                                                {"double", 8},
                                                                {"short", 2},
                                                                {"short int", 2},
                                                                {"unsigned short", 2},
                                                                {"unsigned int", 4},
                                                                {"unsigned long", 8},
                                                                {"signed char", 1},
                                                                {"bool", 1},
                                                                {"c10::complex<c10::Half>", 4},
                                                                {"c10::complex<float>", 8},
                                                                {"c10::complex<double>", 16},
                                                                {"c10::Float8_e4m3fn", 1},
                                                                {"c10::Float8_e5m2", 1},
                                                                {"c10::Float8_e4m3fnuz", 1},
                                                                {"c10::Float8_e5m2fnuz", 1}};
    if (auto it = kPlugin.find(type); it != kPlugin.end()) return it->second;
    if (plugin_compatible) return 0;
    auto it = kMore.find(type);
    return it != kMore.end() ? it->second : 0;
}

bool isNcclOrGloo(const std::string& name) {
    return name.rfind("nccl:", 0) == 0 || name.rfind("gloo:", 0) == 0;
}

void sortRanges(RangeList& ranges) {
    std::stable_sort(ranges.begin(), ranges.end(), [](const TimeRange& a, const TimeRange& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
}

// The plugin's scan: nodes and steps both in time order; a node belongs to
// the step that contains it, and one that straddles a step's boundary
// belongs to none.
void assignSteps(std::vector<CommNode>& nodes, const std::vector<GpuStep>& steps) {
    size_t s = 0;
    for (CommNode& node : nodes) {
        while (s < steps.size()) {
            if (node.start_ns >= steps[s].start_ns && node.end_ns <= steps[s].end_ns) {
                node.step = static_cast<int32_t>(s);
                break;
            }
            if (node.start_ns >= steps[s].end_ns) {
                ++s;
                continue;
            }
            break;
        }
    }
}

class NodeBuilder {
public:
    NodeBuilder(const Trace& trace, const KinetoEvents& events, const LaunchLinks& links,
                const GpuAnalysisOptions& options)
        : trace_(trace), events_(events), links_(links), plugin_(options.plugin_compatible) {}

    std::vector<CommNode> build() {
        if (plugin_)
            pluginNodes();
        else
            nestedNodes();
        std::vector<CommNode> out;
        out.reserve(nodes_.size());
        for (Pending& p : nodes_) {
            sortRanges(p.node.ranges);
            out.push_back(std::move(p.node));
        }
        std::stable_sort(out.begin(), out.end(), [](const CommNode& a, const CommNode& b) {
            return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
        });
        return out;
    }

private:
    struct Pending {
        CommNode node;
        int32_t lane = -1;
        std::unordered_set<int32_t> device; // KinetoEvents positions already added
    };

    const std::string& name(int32_t event) const {
        return trace_.names[trace_.events.core(size_t(event)).name];
    }
    bool onDeviceLane(int32_t event) const {
        const int32_t lane = trace_.events.core(size_t(event)).lane;
        return lane >= 0 && trace_.lanes[lane].device;
    }
    int64_t bytesOf(int32_t event) const {
        const TraceEvent& e = trace_.events[event];
        return inputBytes(trace_.stringAt(e.shapes), trace_.stringAt(e.types), plugin_);
    }
    // A node over the host event `event` (a Trace::events index).
    Pending started(int32_t event, const std::string& label, int64_t bytes) const {
        const TraceEvent& e = trace_.events[event];
        Pending p;
        p.node.name = label;
        p.node.start_ns = e.start_ns;
        p.node.end_ns = e.end_ns();
        p.node.bytes = bytes;
        p.node.ranges.emplace_back(p.node.start_ns, p.node.end_ns);
        p.lane = e.lane;
        return p;
    }
    void addDevice(Pending& p, int32_t position) {
        if (!p.device.insert(position).second) return;
        const KinetoEvent& k = events_.events[position];
        p.node.ranges.emplace_back(k.start, k.end);
        tag(p, k.event);
    }
    // The call's place in its process group, from the first event that says.
    void tag(Pending& p, int32_t event) const {
        if (p.node.seq >= 0) return;
        if (const CollectiveTag* t = trace_.collectiveTagOf(event); t && t->seq >= 0) {
            p.node.seq = t->seq;
            p.node.group = trace_.stringAt(t->group);
        }
    }

    void pluginNodes();
    void nestedNodes();

    const Trace& trace_;
    const KinetoEvents& events_;
    const LaunchLinks& links_;
    const bool plugin_;
    std::vector<Pending> nodes_;
};

void NodeBuilder::pluginNodes() {
    std::unordered_map<int64_t, size_t> by_external;
    bool nccl = false, gloo = false;
    for (const KinetoEvent& e : events_.events) {
        if (!isHostType(e.type) || !isPluginCommunicationOp(name(e.event))) continue;
        const std::string& n = name(e.event);
        (n.rfind("nccl:", 0) == 0 ? nccl : gloo) = true;
        Pending p = started(e.event, n, bytesOf(e.event));
        auto [it, inserted] = by_external.emplace(kinetoIds(trace_, e).external_id, nodes_.size());
        if (inserted)
            nodes_.push_back(std::move(p));
        else
            nodes_[it->second] = std::move(p);
    }
    if (nccl && gloo) {
        nodes_.clear(); // the plugin's distributed view shows neither library then
        return;
    }
    if (!nccl) return;
    for (size_t i = 0; i < events_.events.size(); ++i) {
        const KinetoEvent& k = events_.events[i];
        if (k.type != PluginType::Kernel) continue;
        const int64_t external_id = kinetoIds(trace_, k).external_id;
        if (external_id < 0) continue;
        auto it = by_external.find(external_id);
        if (it != by_external.end()) addDevice(nodes_[it->second], static_cast<int32_t>(i));
    }
}

void NodeBuilder::nestedNodes() {
    std::unordered_map<int32_t, size_t> by_outer_event;
    std::unordered_map<int64_t, size_t> by_external;
    bool unwrapped_library_call = false; // a gloo:/nccl: call in no c10d:: call
    // Time order, so an enclosing collective comes before the ones inside.
    for (const KinetoEvent& e : events_.events) {
        if (!isHostType(e.type) || onDeviceLane(e.event)) continue;
        const std::string& n = name(e.event);
        if (!isCommunicationOpName(n)) continue;
        int32_t outer = e.event;
        for (int32_t p = trace_.events[e.event].parent; p >= 0; p = trace_.events[p].parent)
            if (isCommunicationOpName(name(p))) outer = p;
        auto it = by_outer_event.find(outer);
        if (it == by_outer_event.end()) {
            it = by_outer_event.emplace(outer, nodes_.size()).first;
            nodes_.push_back(started(outer, n, bytesOf(e.event)));
            unwrapped_library_call =
                unwrapped_library_call || (outer == e.event && isNcclOrGloo(n));
        } else if (isNcclOrGloo(n) && !isNcclOrGloo(nodes_[it->second].node.name)) {
            // The library's own name says what the call is (c10d::allreduce_
            // wraps nccl:all_reduce), and its inputs are the message.
            nodes_[it->second].node.name = n;
            nodes_[it->second].node.bytes = bytesOf(e.event);
        }
        tag(nodes_[it->second], e.event);
        if (const int64_t external_id = kinetoIds(trace_, e).external_id; external_id >= 0)
            by_external.emplace(external_id, it->second);
    }
    // PyTorch 2's Gloo on the CPU: each c10d:: call on the caller's thread
    // only hands its work to a Gloo thread, which records it as a gloo:
    // range of its own (with the message's inputs). The gloo: ranges are
    // then the collectives; the c10d:: calls that wrap none would count each
    // a second time (with no size: their input is a TensorList).
    if (unwrapped_library_call) {
        constexpr size_t kDropped = std::numeric_limits<size_t>::max();
        std::vector<size_t> kept(nodes_.size(), kDropped);
        std::vector<Pending> nodes;
        for (size_t i = 0; i < nodes_.size(); ++i) {
            if (!isNcclOrGloo(nodes_[i].node.name)) continue;
            kept[i] = nodes.size();
            nodes.push_back(std::move(nodes_[i]));
        }
        nodes_ = std::move(nodes);
        for (auto it = by_external.begin(); it != by_external.end();)
            if (kept[it->second] == kDropped) {
                it = by_external.erase(it);
            } else {
                it->second = kept[it->second];
                ++it;
            }
    }
    if (nodes_.empty()) return;
    for (size_t i = 0; i < events_.events.size(); ++i) {
        const KinetoEvent& k = events_.events[i];
        if (k.type != PluginType::Kernel) continue;
        const int64_t external_id = kinetoIds(trace_, k).external_id;
        if (external_id < 0) continue;
        auto it = by_external.find(external_id);
        if (it != by_external.end()) addDevice(nodes_[it->second], static_cast<int32_t>(i));
    }
    // Kernels launched from inside a call on its thread.
    std::unordered_map<int32_t, std::vector<size_t>> by_lane;
    for (size_t n = 0; n < nodes_.size(); ++n)
        by_lane[nodes_[n].lane].push_back(n);
    for (const RuntimeCall& call : links_.runtimes) {
        if (call.event < 0 || call.device.empty()) continue;
        auto lane = by_lane.find(trace_.events.core(size_t(call.event)).lane);
        if (lane == by_lane.end()) continue;
        for (size_t n : lane->second) {
            Pending& p = nodes_[n];
            if (call.start < p.node.start_ns || call.end > p.node.end_ns) continue;
            for (int32_t d : call.device)
                if (events_.events[d].type == PluginType::Kernel) addDevice(p, d);
            break;
        }
    }
}

} // namespace

int64_t inputBytes(const std::string& dims_json, const std::string& types_json,
                   bool plugin_compatible) {
    if (dims_json.empty() || types_json.empty()) return 0;
    const nlohmann::json dims = nlohmann::json::parse(dims_json, nullptr, false);
    const nlohmann::json types = nlohmann::json::parse(types_json, nullptr, false);
    if (!dims.is_array() || !types.is_array()) return 0;
    int64_t bytes = 0;
    for (size_t i = 0; i < dims.size() && i < types.size(); ++i) {
        if (!dims[i].is_array() || !types[i].is_string()) continue;
        // Dimensions come from the file: a negative one counts as 0, and a
        // product past int64 saturates instead of overflowing.
        int64_t elements = 1;
        for (const nlohmann::json& d : dims[i]) {
            const int64_t dim = d.is_number_integer() ? std::max<int64_t>(0, d.get<int64_t>()) : 0;
            if (__builtin_mul_overflow(elements, dim, &elements))
                elements = std::numeric_limits<int64_t>::max();
        }
        int64_t input = 0;
        if (__builtin_mul_overflow(
                elements, typeSize(types[i].get<std::string>(), plugin_compatible), &input) ||
            __builtin_add_overflow(bytes, input, &bytes))
            bytes = std::numeric_limits<int64_t>::max();
    }
    return bytes;
}

std::vector<CommNode> collectCommNodes(const Trace& trace, const KinetoEvents& events,
                                       const LaunchLinks& links, const GpuOverview& overview,
                                       const GpuAnalysisOptions& options) {
    std::vector<CommNode> nodes = NodeBuilder(trace, events, links, options).build();
    assignSteps(nodes, overview.steps);
    return nodes;
}

} // namespace ts
