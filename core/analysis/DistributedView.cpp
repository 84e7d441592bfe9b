#include "analysis/DistributedView.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <regex>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/CommunicationNodes.h"
#include "trace/OptimizerSteps.h"

namespace ts {

namespace {

// What one rank's trace gives the view before the ranks are matched.
struct RankInput {
    const RankTrace* source = nullptr;
    GpuOverview overview;
    std::vector<CommNode> nodes;
    std::vector<RangeList> real; // per node: its data-transfer ranges
};

std::string rankName(const RankTrace& r) {
    return "rank " + std::to_string(r.rank) + " (" + r.path.filename().string() + ")";
}

RankInput prepare(const RankTrace& r, const GpuAnalysisOptions& options) {
    RankInput in;
    in.source = &r;
    const KinetoEvents events = collectKinetoEvents(r.trace, options);
    if (events.empty())
        throw std::invalid_argument(r.path.string() +
                                    ": no torch.profiler (Kineto) events, so no distributed view.");
    const LaunchLinks links = linkLaunches(r.trace, events);
    in.overview = computeGpuOverview(r.trace, events, links, options);
    in.nodes = collectCommNodes(r.trace, events, links, in.overview, options);
    if (in.nodes.empty()) {
        std::string why = r.path.string() + ": no collective communication calls (nccl:*, gloo:*" +
                          std::string(options.plugin_compatible ? ")" : ", c10d::*)") +
                          ", so no distributed view.";
        if (options.plugin_compatible && in.overview.nccl && in.overview.gloo)
            why += " It has both NCCL and Gloo calls, for which the plugin shows no distributed "
                   "view; without --plugin-compatible Trainscope shows it.";
        throw std::invalid_argument(why);
    }
    return in;
}

void checkSameCollectiveCount(const std::vector<RankInput>& inputs) {
    for (const RankInput& in : inputs) {
        if (in.nodes.size() == inputs.front().nodes.size()) continue;
        std::string counts;
        for (const RankInput& r : inputs)
            counts += (counts.empty() ? "" : ", ") + rankName(*r.source) + " has " +
                      std::to_string(r.nodes.size());
        throw std::invalid_argument(
            "The ranks made different numbers of collective calls (" + counts +
            "), so their calls cannot be matched one to one: were the traces recorded over the "
            "same steps of the same run?");
    }
}

// Which call of each rank is the same collective: per rank, for each match
// its node. The plugin pairs the i-th calls; Trainscope the i-th call of
// each name, since ranks issue collectives from several threads and their
// order can differ (all_to_all before all_reduce on one rank, after on
// another).
std::vector<std::vector<size_t>> matchCalls(const std::vector<RankInput>& inputs,
                                            bool plugin_compatible) {
    const size_t calls = inputs.front().nodes.size();
    std::vector<std::vector<size_t>> match(calls, std::vector<size_t>(inputs.size()));
    if (plugin_compatible) {
        for (size_t i = 0; i < calls; ++i)
            for (size_t r = 0; r < inputs.size(); ++r)
                match[i][r] = i;
        return match;
    }
    std::map<std::pair<std::string, size_t>, size_t> slot; // (name, n-th) -> match
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < calls; ++i)
        slot[{inputs.front().nodes[i].name, seen[inputs.front().nodes[i].name]++}] = i;
    for (size_t r = 0; r < inputs.size(); ++r) {
        std::map<std::string, size_t> nth;
        for (size_t i = 0; i < calls; ++i) {
            const std::string& name = inputs[r].nodes[i].name;
            auto it = slot.find({name, nth[name]++});
            if (it == slot.end())
                throw std::invalid_argument(
                    rankName(*inputs[r].source) + " made " + std::to_string(nth[name]) +
                    " or more " + name + " calls, " + rankName(*inputs.front().source) + " " +
                    std::to_string(seen[name]) +
                    ", so their calls cannot be matched one to one: were the traces recorded "
                    "over the same steps of the same run?");
            match[it->second][r] = i;
        }
    }
    return match;
}

// The plugin's data-transfer time: the j-th range of a call took, on every
// rank, at least as long as on the fastest rank; that shortest duration,
// counted back from each rank's end, is the transfer, the rest waiting.
void dataTransferRanges(std::vector<RankInput>& inputs, bool plugin_compatible,
                        std::vector<std::string>& notes) {
    const std::vector<std::vector<size_t>> match = matchCalls(inputs, plugin_compatible);
    for (RankInput& in : inputs)
        in.real.assign(in.nodes.size(), {});
    size_t uneven = 0;
    for (size_t m = 0; m < match.size(); ++m) {
        auto node = [&](size_t r) -> const CommNode& { return inputs[r].nodes[match[m][r]]; };
        size_t common = node(0).ranges.size(), most = common;
        for (size_t r = 0; r < inputs.size(); ++r) {
            common = std::min(common, node(r).ranges.size());
            most = std::max(most, node(r).ranges.size());
        }
        if (common != most) {
            if (plugin_compatible)
                throw std::invalid_argument(
                    "Collective call " + std::to_string(m + 1) + " (" + node(0).name +
                    ") launched different numbers of kernels on different ranks, so the plugin "
                    "shows no distributed view; without --plugin-compatible Trainscope does.");
            ++uneven;
        }
        for (size_t j = 0; j < most; ++j) {
            int64_t shortest = std::numeric_limits<int64_t>::max();
            if (j < common)
                for (size_t r = 0; r < inputs.size(); ++r)
                    shortest =
                        std::min(shortest, node(r).ranges[j].second - node(r).ranges[j].first);
            for (size_t r = 0; r < inputs.size(); ++r) {
                if (j >= node(r).ranges.size()) continue;
                const TimeRange& t = node(r).ranges[j];
                inputs[r].real[match[m][r]].emplace_back(j < common ? t.second - shortest : t.first,
                                                         t.second);
            }
        }
    }
    if (uneven > 0)
        notes.push_back(std::to_string(uneven) +
                        " collective call(s) launched different numbers of kernels on different "
                        "ranks; their unmatched kernels count as data transfer throughout.");
}

int64_t mergedLength(RangeList ranges) {
    return totalLength(mergeRanges(std::move(ranges)));
}

// The plugin's average: truncated to whole microseconds; Trainscope's to ns.
int64_t truncatedAverage(int64_t sum_ns, size_t count, bool plugin_compatible) {
    const auto n = static_cast<int64_t>(std::max<size_t>(1, count));
    return plugin_compatible ? sum_ns / (1000 * n) * 1000 : sum_ns / n;
}

void stepCosts(const RankInput& in, RankView& view, bool plugin_compatible) {
    const GpuOverview& o = in.overview;
    const RangeList& kernels = o.roles[static_cast<size_t>(GpuRole::Kernel)];
    const RangeList& compute =
        kernels.empty() ? o.roles[static_cast<size_t>(GpuRole::CpuExec)] : kernels;
    const RangeList& comm = o.roles[static_cast<size_t>(GpuRole::Communication)];
    const RangeList both = intersectRanges(compute, comm);
    std::vector<RangeList> step_ranges(o.steps.size()), step_real(o.steps.size());
    for (size_t i = 0; i < in.nodes.size(); ++i) {
        const CommNode& node = in.nodes[i];
        if (node.step < 0) continue;
        RangeList& all = step_ranges[node.step];
        all.insert(all.end(), node.ranges.begin(), node.ranges.end());
        step_real[node.step].insert(step_real[node.step].end(), in.real[i].begin(),
                                    in.real[i].end());
    }
    DistributedStep sum;
    size_t with_comm = 0;
    for (size_t s = 0; s < o.steps.size(); ++s) {
        const GpuStep& g = o.steps[s];
        DistributedStep d;
        d.label = g.label;
        d.total_ns = g.end_ns - g.start_ns;
        const int64_t computation = lengthWithin(compute, g.start_ns, g.end_ns);
        const int64_t communication = lengthWithin(comm, g.start_ns, g.end_ns);
        d.overlapping_ns = lengthWithin(both, g.start_ns, g.end_ns);
        d.computation_ns = computation - d.overlapping_ns;
        d.communication_ns = communication - d.overlapping_ns;
        d.other_ns = d.total_ns + d.overlapping_ns - computation - communication;
        d.has_communication = !step_ranges[s].empty();
        if (d.has_communication) {
            const int64_t latency = mergedLength(step_ranges[s]);
            d.data_transfer_ns = mergedLength(step_real[s]);
            d.synchronizing_ns = latency - d.data_transfer_ns;
            ++with_comm;
        }
        sum.computation_ns += d.computation_ns;
        sum.overlapping_ns += d.overlapping_ns;
        sum.communication_ns += d.communication_ns;
        sum.other_ns += d.other_ns;
        sum.total_ns += d.total_ns;
        sum.data_transfer_ns += d.data_transfer_ns;
        sum.synchronizing_ns += d.synchronizing_ns;
        view.steps.push_back(std::move(d));
    }
    DistributedStep& a = view.average;
    a.label = "all";
    const size_t n = o.steps.size();
    a.computation_ns = truncatedAverage(sum.computation_ns, n, plugin_compatible);
    a.overlapping_ns = truncatedAverage(sum.overlapping_ns, n, plugin_compatible);
    a.communication_ns = truncatedAverage(sum.communication_ns, n, plugin_compatible);
    a.other_ns = truncatedAverage(sum.other_ns, n, plugin_compatible);
    a.total_ns = truncatedAverage(sum.total_ns, n, plugin_compatible);
    a.has_communication = with_comm > 0;
    a.data_transfer_ns = truncatedAverage(sum.data_transfer_ns, with_comm, plugin_compatible);
    a.synchronizing_ns = truncatedAverage(sum.synchronizing_ns, with_comm, plugin_compatible);
}

void opTable(const RankInput& in, RankView& view) {
    std::map<std::string, size_t> row_of;
    std::vector<RangeList> latency, transfer;
    for (size_t i = 0; i < in.nodes.size(); ++i) {
        const CommNode& node = in.nodes[i];
        auto [it, added] = row_of.emplace(node.name, view.ops.size());
        if (added) {
            view.ops.push_back(CommOpRow{node.name});
            latency.emplace_back();
            transfer.emplace_back();
        }
        CommOpRow& row = view.ops[it->second];
        ++row.calls;
        row.total_bytes += node.bytes;
        latency[it->second].insert(latency[it->second].end(), node.ranges.begin(),
                                   node.ranges.end());
        transfer[it->second].insert(transfer[it->second].end(), in.real[i].begin(),
                                    in.real[i].end());
        if (node.step < 0) ++view.outside_steps;
    }
    for (size_t r = 0; r < view.ops.size(); ++r) {
        view.ops[r].total_latency_ns = mergedLength(std::move(latency[r]));
        view.ops[r].total_data_transfer_ns = mergedLength(std::move(transfer[r]));
    }
    view.collectives = in.nodes.size();
}

void identity(const RankInput& in, size_t index, RankView& view) {
    const RankTrace& r = *in.source;
    view.worker = r.worker;
    view.rank = r.rank;
    view.rank_source = r.rank_source;
    view.path = r.path.string();
    static const std::regex kNodeProcess(R"(^(.*)_(\d+))");
    std::smatch m;
    if (std::regex_search(r.worker, m, kNodeProcess)) {
        view.node = m[1].str();
        view.process = "Process " + m[2].str();
    } else {
        view.node = r.worker;
        view.process = "Process " + std::to_string(index);
    }
    const nlohmann::json info = nlohmann::json::parse(r.trace.kineto.distributed_info.empty()
                                                          ? std::string("{}")
                                                          : r.trace.kineto.distributed_info,
                                                      nullptr, false);
    if (info.is_object()) {
        if (auto b = info.find("backend"); b != info.end() && b->is_string())
            view.backend = b->get<std::string>();
        if (auto w = info.find("world_size"); w != info.end() && w->is_number_integer())
            view.world_size = w->get<int64_t>();
    }
    bool nccl = false, gloo = false;
    for (const CommNode& node : in.nodes) {
        nccl = nccl || node.name.rfind("nccl:", 0) == 0;
        gloo = gloo || node.name.rfind("gloo:", 0) == 0;
    }
    view.library = nccl && gloo ? "NCCL+Gloo" : nccl ? "NCCL" : gloo ? "Gloo" : "";
    view.uses_gpu = in.overview.showsGpu();
    for (int32_t id : in.overview.used_devices) {
        RankDevice d;
        d.id = id;
        for (const DeviceProperties& p : r.trace.kineto.devices)
            if (p.id == id) {
                d.name = p.name;
                d.memory_bytes = p.total_global_mem;
                d.compute_major = p.compute_major;
                d.compute_minor = p.compute_minor;
            }
        view.devices.push_back(d);
    }
}

int64_t median(std::vector<int64_t> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// "56 us", "12.5 us", "2.14 ms".
std::string durationText(int64_t ns) {
    char buf[48];
    const double us = double(ns) / 1000;
    if (std::fabs(us) >= 1000)
        std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    else if (ns % 1000 == 0)
        std::snprintf(buf, sizeof buf, "%lld us", static_cast<long long>(ns / 1000));
    else
        std::snprintf(buf, sizeof buf, "%.1f us", us);
    return buf;
}

std::string stragglerMessage(const Straggler& s) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.0f%%", 100 * s.excessFraction());
    return "rank " + std::to_string(s.rank) + " computes " + durationText(s.excessNs()) + " (" +
           pct + ") longer per step than the median of the other ranks (" +
           durationText(s.computation_ns) + " vs " + durationText(s.others_computation_ns) +
           "); they wait for it: synchronizing " + durationText(s.others_synchronizing_ns) +
           " per step (its own: " + durationText(s.own_synchronizing_ns) + ")";
}

// What a rank computes per step, as the stragglers are judged. On a GPU the
// kernels that overlap the collectives are computation. On the CPU (Gloo)
// the host's computation is its operators, whose ranges enclose the
// collectives they call: a rank blocked in c10d::allreduce_ is waiting for
// the others there, so that time is communication, not computation (with it
// the rank that waits the longest would look the slowest).
int64_t stragglerComputationNs(const RankView& rank) {
    return rank.uses_gpu ? rank.average.computationWithOverlapNs() : rank.average.computation_ns;
}

// Why no rank is a straggler: the busiest against the rules of findStragglers.
std::string noStragglerText(const Straggler& busiest, double threshold) {
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%", 100 * kStragglerStepShare);
    const std::string head = "No straggler: the busiest, rank " + std::to_string(busiest.rank) +
                             ", computes " + durationText(busiest.excessNs()) +
                             " more per step than the median of the others";
    const std::string limit =
        durationText(int64_t(threshold)) + " (" + share + " of the median step)";
    if (double(busiest.excessNs()) <= threshold) return head + ", under the threshold of " + limit;
    return head + ", but they wait for it " + durationText(busiest.others_synchronizing_ns) +
           " per step in their collectives (its own wait: " +
           durationText(busiest.own_synchronizing_ns) + "), under " + limit;
}

void findStragglers(DistributedView& view) {
    const std::vector<RankView>& ranks = view.ranks;
    if (ranks.size() < 2) {
        view.no_straggler = "No straggler: one rank only";
        return;
    }
    std::vector<int64_t> steps, computations;
    for (const RankView& r : ranks) {
        steps.push_back(r.average.total_ns);
        computations.push_back(stragglerComputationNs(r));
    }
    const int64_t median_step = median(steps);
    const double threshold = kStragglerStepShare * double(median_step);
    Straggler busiest;
    for (size_t i = 0; i < ranks.size(); ++i) {
        std::vector<int64_t> other_comp, other_step, other_sync;
        for (size_t j = 0; j < ranks.size(); ++j) {
            if (j == i) continue;
            other_comp.push_back(computations[j]);
            other_step.push_back(steps[j]);
            other_sync.push_back(ranks[j].average.synchronizing_ns);
        }
        Straggler s;
        s.rank = ranks[i].rank;
        s.worker = ranks[i].worker;
        s.computation_ns = computations[i];
        s.others_computation_ns = median(other_comp);
        s.step_ns = steps[i];
        s.others_step_ns = median(other_step);
        s.others_synchronizing_ns = median(other_sync);
        s.own_synchronizing_ns = ranks[i].average.synchronizing_ns;
        if (i == 0 || s.computation_ns > busiest.computation_ns) busiest = s;
        if (s.excessNs() <= 0 || double(s.excessNs()) <= threshold) continue;
        // The others must wait in their collectives for it to hold them up:
        // a rank whose extra computation they never wait for (it started its
        // steps earlier, or another rank is later still) is no straggler.
        if (double(s.others_synchronizing_ns) <= threshold) continue;
        s.message = stragglerMessage(s);
        view.stragglers.push_back(std::move(s));
    }
    if (view.stragglers.empty()) view.no_straggler = noStragglerText(busiest, threshold);
    std::stable_sort(
        view.stragglers.begin(), view.stragglers.end(),
        [](const Straggler& a, const Straggler& b) { return a.excessNs() > b.excessNs(); });
    double mean = 0;
    for (int64_t c : computations)
        mean += double(c) / double(computations.size());
    const int64_t most = *std::max_element(computations.begin(), computations.end());
    view.computation_imbalance = mean > 0 ? double(most) / mean - 1 : 0;
    view.step_time_spread_ns = *std::max_element(steps.begin(), steps.end()) -
                               *std::min_element(steps.begin(), steps.end());
}

} // namespace

DistributedView computeDistributedView(const std::vector<RankTrace>& ranks,
                                       const GpuAnalysisOptions& options) {
    if (ranks.empty()) throw std::invalid_argument("No rank traces for the distributed view.");
    DistributedView view;
    view.plugin_compatible = options.plugin_compatible;
    std::vector<RankInput> inputs;
    for (const RankTrace& r : ranks)
        inputs.push_back(prepare(r, options));
    checkSameCollectiveCount(inputs);
    dataTransferRanges(inputs, options.plugin_compatible, view.notes);
    size_t outside = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        RankView r;
        identity(inputs[i], i, r);
        stepCosts(inputs[i], r, options.plugin_compatible);
        opTable(inputs[i], r);
        outside += r.outside_steps;
        view.ranks.push_back(std::move(r));
    }
    if (outside > 0)
        view.notes.push_back(std::to_string(outside) +
                             " collective call(s) lie outside every step (or straddle a step's "
                             "boundary): they count in the operations table, not in the steps.");
    for (const RankView& r : view.ranks)
        if (r.steps.size() != view.ranks.front().steps.size()) {
            view.notes.push_back("The ranks have different numbers of steps; each rank's average "
                                 "is over its own steps.");
            break;
        }
    for (const RankTrace& r : ranks)
        if (!r.trace.steps_from.empty()) { // said once, of the lowest rank
            view.notes.push_back("Rank " + std::to_string(r.rank) + ": " +
                                 derivedStepsText(r.trace) + ".");
            break;
        }
    findStragglers(view);
    return view;
}

} // namespace ts
