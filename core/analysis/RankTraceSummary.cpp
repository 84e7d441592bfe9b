#include "analysis/RankTraceSummary.h"

#include <unordered_map>

#include <nlohmann/json.hpp>

#include "analysis/CommunicationNodes.h"
#include "trace/OptimizerSteps.h"

namespace ts {

namespace {

void identity(const RankTrace& r, RankTraceSummary& out) {
    out.worker = r.worker;
    out.rank = r.rank;
    out.rank_source = r.rank_source;
    out.path = r.path.string();
    out.origin_ns = r.trace.origin_ns;
    const std::string& text = r.trace.kineto.distributed_info;
    const nlohmann::json info =
        nlohmann::json::parse(text.empty() ? std::string("{}") : text, nullptr, false);
    if (!info.is_object()) return;
    if (auto b = info.find("backend"); b != info.end() && b->is_string())
        out.backend = b->get<std::string>();
    if (auto w = info.find("world_size"); w != info.end() && w->is_number_integer())
        out.world_size = w->get<int64_t>();
}

void devicesOf(const RankTrace& r, const GpuOverview& overview, RankTraceSummary& out) {
    out.uses_gpu = overview.showsGpu();
    for (int32_t id : overview.used_devices) {
        RankDevice d;
        d.id = id;
        for (const DeviceProperties& p : r.trace.kineto.devices)
            if (p.id == id) {
                d.name = p.name;
                d.memory_bytes = p.total_global_mem;
                d.compute_major = p.compute_major;
                d.compute_minor = p.compute_minor;
            }
        out.devices.push_back(d);
    }
}

// Each step's computation, overlapping, communication and other time: the
// rank's own figures; the collectives' transfer/wait split needs the others.
void stepSplits(const GpuOverview& o, RankTraceSummary& out) {
    const RangeList& kernels = o.roles[static_cast<size_t>(GpuRole::Kernel)];
    const RangeList& compute =
        kernels.empty() ? o.roles[static_cast<size_t>(GpuRole::CpuExec)] : kernels;
    const RangeList& comm = o.roles[static_cast<size_t>(GpuRole::Communication)];
    const RangeList both = intersectRanges(compute, comm);
    for (const GpuStep& g : o.steps) {
        DistributedStep d;
        d.label = g.label;
        d.start_ns = g.start_ns;
        d.end_ns = g.end_ns;
        d.total_ns = g.end_ns - g.start_ns;
        const int64_t computation = lengthWithin(compute, g.start_ns, g.end_ns);
        const int64_t communication = lengthWithin(comm, g.start_ns, g.end_ns);
        d.overlapping_ns = lengthWithin(both, g.start_ns, g.end_ns);
        d.computation_ns = computation - d.overlapping_ns;
        d.communication_ns = communication - d.overlapping_ns;
        d.other_ns = d.total_ns + d.overlapping_ns - computation - communication;
        d.data_loading_ns = g.cost_ns[static_cast<size_t>(GpuRole::DataLoader)];
        out.steps.push_back(std::move(d));
        out.step_roles.push_back(g.cost_ns);
    }
}

void collectives(std::vector<CommNode>& nodes, RankTraceSummary& out) {
    std::unordered_map<std::string, uint32_t> ids;
    std::unordered_map<std::string, int32_t> groups;
    bool nccl = false, gloo = false;
    for (CommNode& node : nodes) {
        auto [it, added] = ids.emplace(node.name, uint32_t(out.collective_names.size()));
        if (added) out.collective_names.push_back(node.name);
        nccl = nccl || node.name.rfind("nccl:", 0) == 0;
        gloo = gloo || node.name.rfind("gloo:", 0) == 0;
        RankCollective c{it->second, node.step, node.bytes, std::move(node.ranges)};
        if (node.seq >= 0) {
            auto group = groups.emplace(node.group, int32_t(out.group_names.size())).first;
            if (group->second == int32_t(out.group_names.size()))
                out.group_names.push_back(node.group);
            c.group = group->second;
            c.seq = node.seq;
        }
        out.collectives.push_back(std::move(c));
    }
    out.library = nccl && gloo ? "NCCL+Gloo" : nccl ? "NCCL" : gloo ? "Gloo" : "";
}

std::string noCollectivesText(const RankTrace& r, const GpuOverview& overview,
                              const GpuAnalysisOptions& options) {
    std::string why = r.path.string() + ": no collective communication calls (nccl:*, gloo:*" +
                      std::string(options.plugin_compatible ? ")" : ", c10d::*)") +
                      ", so no distributed view.";
    if (options.plugin_compatible && overview.nccl && overview.gloo)
        why += " It has both NCCL and Gloo calls, for which the plugin shows no distributed "
               "view; without --plugin-compatible Trainscope shows it.";
    return why;
}

} // namespace

RankTraceSummary summarizeRank(const RankTrace& r, const GpuAnalysisOptions& options) {
    RankTraceSummary out;
    identity(r, out);
    const DeviceActivities activity = collectDeviceActivity(r.trace);
    out.activity = activityFacts(activity);
    if (!activity.empty()) out.temporal = temporalBreakdown(activity);
    out.temporal.rank = 0;
    const KinetoEvents events = collectKinetoEvents(r.trace, options);
    if (events.empty()) {
        out.problem =
            r.path.string() + ": no torch.profiler (Kineto) events, so no distributed view.";
        return out;
    }
    const LaunchLinks links = linkLaunches(r.trace, events);
    const GpuOverview overview = computeGpuOverview(r.trace, events, links, options);
    std::vector<CommNode> nodes = collectCommNodes(r.trace, events, links, overview, options);
    devicesOf(r, overview, out);
    stepSplits(overview, out);
    if (nodes.empty()) out.problem = noCollectivesText(r, overview, options);
    collectives(nodes, out);
    if (!r.trace.steps_from.empty()) out.steps_note = derivedStepsText(r.trace);
    return out;
}

} // namespace ts
