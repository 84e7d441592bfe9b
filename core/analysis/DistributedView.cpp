#include "analysis/DistributedView.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/RankSpreads.h"
#include "analysis/RankTraceSummary.h"
#include "trace/RankOrder.h"
#include "util/ThreadPool.h"

namespace ts {

namespace {

// A rank in the view: its summary and, per collective call, the ranges in
// which its data moved (the rest of the call it waited): call i's are
// real[first[i]] .. real[first[i + 1]], one per range of the call (flat: a
// 1,024-rank view has a million calls).
struct RankInput {
    RankTraceSummary* summary = nullptr;
    RangeList real;
    std::vector<uint32_t> first;

    void realOf(size_t call, RangeList& into) const {
        into.insert(into.end(), real.begin() + first[call], real.begin() + first[call + 1]);
    }
};

std::string rankName(const RankTraceSummary& r) {
    return "rank " + std::to_string(r.rank) + " (" +
           std::filesystem::path(r.path).filename().string() + ")";
}

const std::string& callName(const RankInput& in, size_t call) {
    return in.summary->collective_names[in.summary->collectives[call].name];
}

void checkSameCollectiveCount(const std::vector<RankInput>& inputs) {
    for (const RankInput& in : inputs) {
        if (in.summary->collectives.size() == inputs.front().summary->collectives.size()) continue;
        std::string counts;
        for (const RankInput& r : inputs)
            counts += (counts.empty() ? "" : ", ") + rankName(*r.summary) + " has " +
                      std::to_string(r.summary->collectives.size());
        throw std::invalid_argument(
            "The ranks made different numbers of collective calls (" + counts +
            "), so their calls cannot be matched one to one: were the traces recorded over the "
            "same steps of the same run?");
    }
}

std::string unmatchedText(const RankInput& in, const RankInput& first, const std::string& name,
                          size_t nth, size_t seen) {
    return rankName(*in.summary) + " made " + std::to_string(nth) + " or more " + name +
           " calls, " + rankName(*first.summary) + " " + std::to_string(seen) +
           ", so their calls cannot be matched one to one: were the traces recorded over the "
           "same steps of the same run?";
}

using Match = std::vector<std::vector<uint32_t>>; // per match, per rank its call
// The match, and whether it is by process group and Seq (said in a note).
struct Matched {
    Match match;
    bool by_seq = false;
};
using Unmatched = std::vector<std::pair<size_t, std::string>>;

// A call's process group (by name) and number in it.
using SeqKey = std::pair<std::string_view, int64_t>;

// Whether every call of every rank says its process group and Seq, no pair
// twice on a rank, and every rank calls in the same groups: PyTorch 2's NCCL
// traces say them, older and Gloo ones do not. Ranks in different subgroups
// (tensor-parallel groups of 8 in a data-parallel job) call in groups of
// different names; their calls are then matched by name and order, as the
// same call of the same program.
bool keyedBySeq(const std::vector<RankInput>& inputs) {
    std::set<std::string_view> first_groups;
    for (const RankInput& in : inputs) {
        const RankTraceSummary& s = *in.summary;
        std::set<SeqKey> seen;
        std::set<std::string_view> groups;
        for (const RankCollective& c : s.collectives) {
            if (c.group < 0 || !seen.emplace(s.group_names[size_t(c.group)], c.seq).second)
                return false;
            groups.insert(s.group_names[size_t(c.group)]);
        }
        if (&in == &inputs.front())
            first_groups = std::move(groups);
        else if (groups != first_groups)
            return false;
    }
    return true;
}

// Matches the calls that share process group and Seq with the first rank's.
void matchBySeq(const std::vector<RankInput>& inputs, bool strict, Match& match,
                Unmatched& unmatched) {
    const RankTraceSummary& first = *inputs.front().summary;
    std::map<SeqKey, uint32_t> slot;
    for (size_t i = 0; i < first.collectives.size(); ++i) {
        const RankCollective& c = first.collectives[i];
        slot.emplace(SeqKey(first.group_names[size_t(c.group)], c.seq), uint32_t(i));
    }
    for (size_t r = 0; r < inputs.size(); ++r) {
        const RankTraceSummary& rank = *inputs[r].summary;
        for (size_t i = 0; i < rank.collectives.size(); ++i) {
            const RankCollective& c = rank.collectives[i];
            const std::string& group = rank.group_names[size_t(c.group)];
            if (auto it = slot.find(SeqKey(group, c.seq)); it != slot.end()) {
                match[it->second][r] = uint32_t(i);
                continue;
            }
            const std::string why =
                rankName(rank) + " made " + callName(inputs[r], i) + " number " +
                std::to_string(c.seq) + " of process group \"" + group + "\", which " +
                rankName(first) +
                " did not, so their calls cannot be matched one to one: were the traces "
                "recorded over the same steps of the same run?";
            if (strict) throw std::invalid_argument(why);
            unmatched.emplace_back(r, why);
            break;
        }
    }
}

// Which call of each rank is the same collective: per match, per rank its
// call. The plugin pairs the i-th calls. Trainscope pairs the calls with the
// same process group and Seq where every call says them (PyTorch 2 on
// NCCL), else the i-th call of each name, since ranks issue collectives
// from several threads and their order can differ (all_to_all before
// all_reduce on one rank, after on another; one group's calls before
// another's). A rank whose calls do not match the first rank's throws when
// `strict`, else is named in `unmatched` (by position) and its row left unset.
Matched matchCalls(const std::vector<RankInput>& inputs, bool plugin_compatible, bool strict,
                   Unmatched& unmatched) {
    const size_t calls = inputs.front().summary->collectives.size();
    Matched out{Match(calls, std::vector<uint32_t>(inputs.size()))};
    Match& match = out.match;
    if (plugin_compatible) {
        for (size_t i = 0; i < calls; ++i)
            for (size_t r = 0; r < inputs.size(); ++r)
                match[i][r] = uint32_t(i);
        return out;
    }
    out.by_seq = keyedBySeq(inputs);
    if (out.by_seq) {
        matchBySeq(inputs, strict, match, unmatched);
        return out;
    }
    // Per name (the first rank's index), per n-th call of it: the match.
    const RankTraceSummary& first = *inputs.front().summary;
    std::unordered_map<std::string, size_t> name_id;
    for (size_t n = 0; n < first.collective_names.size(); ++n)
        name_id.emplace(first.collective_names[n], n);
    std::vector<std::vector<uint32_t>> slot(first.collective_names.size());
    for (size_t i = 0; i < calls; ++i)
        slot[first.collectives[i].name].push_back(uint32_t(i));
    for (size_t r = 0; r < inputs.size(); ++r) {
        const RankTraceSummary& rank = *inputs[r].summary;
        std::vector<size_t> to_first(rank.collective_names.size(), SIZE_MAX);
        for (size_t n = 0; n < rank.collective_names.size(); ++n)
            if (auto it = name_id.find(rank.collective_names[n]); it != name_id.end())
                to_first[n] = it->second;
        std::vector<size_t> nth(slot.size(), 0);
        for (size_t i = 0; i < calls; ++i) {
            const size_t id = to_first[rank.collectives[i].name];
            if (id != SIZE_MAX && nth[id] < slot[id].size()) {
                match[slot[id][nth[id]++]][r] = uint32_t(i);
                continue;
            }
            const std::string& name = callName(inputs[r], i);
            size_t made = 1, seen = 0; // this rank's calls of the name so far, the first rank's
            for (size_t j = 0; j < i; ++j)
                made += rank.collectives[j].name == rank.collectives[i].name ? 1 : 0;
            if (id != SIZE_MAX) seen = slot[id].size();
            const std::string why = unmatchedText(inputs[r], inputs.front(), name, made, seen);
            if (strict) throw std::invalid_argument(why);
            unmatched.emplace_back(r, why);
            break;
        }
    }
    return out;
}

const RangeList& rangesOf(const RankInput& in, size_t call) {
    return in.summary->collectives[call].ranges;
}

// The plugin's data-transfer time: the j-th range of a call took, on every
// rank, at least as long as on the fastest rank; that shortest duration,
// counted back from each rank's end, is the transfer, the rest waiting.
void dataTransferRanges(std::vector<RankInput>& inputs,
                        const std::vector<std::vector<uint32_t>>& match, bool plugin_compatible,
                        std::vector<std::string>& notes) {
    for (RankInput& in : inputs) {
        const std::vector<RankCollective>& calls = in.summary->collectives;
        in.first.assign(calls.size() + 1, 0);
        for (size_t i = 0; i < calls.size(); ++i)
            in.first[i + 1] = in.first[i] + uint32_t(calls[i].ranges.size());
        in.real.assign(in.first.back(), TimeRange{0, 0});
    }
    size_t uneven = 0;
    for (size_t m = 0; m < match.size(); ++m) {
        auto node = [&](size_t r) -> const RangeList& { return rangesOf(inputs[r], match[m][r]); };
        size_t common = node(0).size(), most = common;
        for (size_t r = 0; r < inputs.size(); ++r) {
            common = std::min(common, node(r).size());
            most = std::max(most, node(r).size());
        }
        if (common != most) {
            if (plugin_compatible)
                throw std::invalid_argument(
                    "Collective call " + std::to_string(m + 1) + " (" +
                    callName(inputs[0], match[m][0]) +
                    ") launched different numbers of kernels on different ranks, so the plugin "
                    "shows no distributed view; without --plugin-compatible Trainscope does.");
            ++uneven;
        }
        for (size_t j = 0; j < most; ++j) {
            int64_t shortest = std::numeric_limits<int64_t>::max();
            if (j < common)
                for (size_t r = 0; r < inputs.size(); ++r)
                    shortest = std::min(shortest, node(r)[j].second - node(r)[j].first);
            for (size_t r = 0; r < inputs.size(); ++r) {
                if (j >= node(r).size()) continue;
                const TimeRange& t = node(r)[j];
                inputs[r].real[inputs[r].first[match[m][r]] + j] =
                    TimeRange(j < common ? t.second - shortest : t.first, t.second);
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
    const RankTraceSummary& s = *in.summary;
    std::vector<RangeList> step_ranges(s.steps.size()), step_real(s.steps.size());
    for (size_t i = 0; i < s.collectives.size(); ++i) {
        const RankCollective& c = s.collectives[i];
        if (c.step < 0 || size_t(c.step) >= s.steps.size()) continue;
        RangeList& all = step_ranges[c.step];
        all.insert(all.end(), c.ranges.begin(), c.ranges.end());
        in.realOf(i, step_real[c.step]);
    }
    DistributedStep sum;
    size_t with_comm = 0;
    view.steps = s.steps;
    for (size_t i = 0; i < view.steps.size(); ++i) {
        DistributedStep& d = view.steps[i];
        d.has_communication = !step_ranges[i].empty();
        if (d.has_communication) {
            const int64_t latency = mergedLength(std::move(step_ranges[i]));
            d.data_transfer_ns = mergedLength(std::move(step_real[i]));
            d.synchronizing_ns = latency - d.data_transfer_ns;
            ++with_comm;
        }
        sum.computation_ns += d.computation_ns;
        sum.overlapping_ns += d.overlapping_ns;
        sum.communication_ns += d.communication_ns;
        sum.other_ns += d.other_ns;
        sum.total_ns += d.total_ns;
        sum.data_loading_ns += d.data_loading_ns;
        sum.data_transfer_ns += d.data_transfer_ns;
        sum.synchronizing_ns += d.synchronizing_ns;
    }
    DistributedStep& a = view.average;
    a.label = "all";
    const size_t n = view.steps.size();
    a.computation_ns = truncatedAverage(sum.computation_ns, n, plugin_compatible);
    a.overlapping_ns = truncatedAverage(sum.overlapping_ns, n, plugin_compatible);
    a.communication_ns = truncatedAverage(sum.communication_ns, n, plugin_compatible);
    a.other_ns = truncatedAverage(sum.other_ns, n, plugin_compatible);
    a.total_ns = truncatedAverage(sum.total_ns, n, plugin_compatible);
    a.data_loading_ns = truncatedAverage(sum.data_loading_ns, n, plugin_compatible);
    a.has_communication = with_comm > 0;
    a.data_transfer_ns = truncatedAverage(sum.data_transfer_ns, with_comm, plugin_compatible);
    a.synchronizing_ns = truncatedAverage(sum.synchronizing_ns, with_comm, plugin_compatible);
}

void opTable(const RankInput& in, RankView& view) {
    const RankTraceSummary& s = *in.summary;
    std::vector<size_t> row_of(s.collective_names.size(), SIZE_MAX);
    std::vector<RangeList> latency, transfer;
    for (size_t i = 0; i < s.collectives.size(); ++i) {
        const RankCollective& c = s.collectives[i];
        if (row_of[c.name] == SIZE_MAX) {
            row_of[c.name] = view.ops.size();
            view.ops.push_back(CommOpRow{s.collective_names[c.name]});
            latency.emplace_back();
            transfer.emplace_back();
        }
        const size_t row = row_of[c.name];
        ++view.ops[row].calls;
        // Sizes come from the trace's shapes: a fuzzed one's sum saturates.
        if (__builtin_add_overflow(view.ops[row].total_bytes, c.bytes, &view.ops[row].total_bytes))
            view.ops[row].total_bytes = std::numeric_limits<int64_t>::max();
        latency[row].insert(latency[row].end(), c.ranges.begin(), c.ranges.end());
        in.realOf(i, transfer[row]);
        if (c.step < 0) ++view.outside_steps;
    }
    for (size_t r = 0; r < view.ops.size(); ++r) {
        view.ops[r].total_latency_ns = mergedLength(std::move(latency[r]));
        view.ops[r].total_data_transfer_ns = mergedLength(std::move(transfer[r]));
    }
    view.collectives = s.collectives.size();
}

void identity(RankTraceSummary& s, size_t index, RankView& view) {
    view.worker = s.worker;
    view.rank = s.rank;
    view.rank_source = s.rank_source;
    view.path = s.path;
    // "<node>_<process>", the plugin's worker naming (the last "_" followed
    // by digits), without std::regex: a folder names 1,024 workers.
    size_t cut = std::string::npos;
    for (size_t i = 0; i + 1 < s.worker.size(); ++i)
        if (s.worker[i] == '_' && std::isdigit(static_cast<unsigned char>(s.worker[i + 1])))
            cut = i;
    if (cut != std::string::npos) {
        size_t end = cut + 1;
        while (end < s.worker.size() && std::isdigit(static_cast<unsigned char>(s.worker[end])))
            ++end;
        view.node = s.worker.substr(0, cut);
        view.process = "Process " + s.worker.substr(cut + 1, end - cut - 1);
    } else {
        view.node = s.worker;
        view.process = "Process " + std::to_string(index);
    }
    view.backend = s.backend;
    view.world_size = s.world_size;
    view.library = s.library;
    view.uses_gpu = s.uses_gpu;
    view.devices = s.devices;
}

// The ranks that can form the view, in rank order: `strict` throws for a
// file that cannot (as the trace path always did); otherwise such a file,
// and a second file claiming a rank, go to `left_out` with why.
std::vector<RankInput> usableRanks(std::vector<RankTraceSummary>& ranks, bool strict,
                                   std::vector<std::string>& left_out) {
    const std::vector<size_t> twice = orderRanks(ranks);
    std::vector<bool> drop(ranks.size(), false);
    for (size_t i : twice) {
        if (strict)
            throw std::invalid_argument(ranks[i - 1].path + " and " + ranks[i].path +
                                        " are both rank " + std::to_string(ranks[i].rank) + ".");
        drop[i] = true;
        left_out.push_back(ranks[i].path + ": also rank " + std::to_string(ranks[i].rank) +
                           " (from its " + toString(ranks[i].rank_source) + "), as " +
                           ranks[i - 1].path + ": left out.");
    }
    std::vector<RankInput> out;
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (drop[i]) continue;
        if (!ranks[i].problem.empty()) {
            if (strict) throw std::invalid_argument(ranks[i].problem);
            left_out.push_back(ranks[i].problem);
            continue;
        }
        out.emplace_back().summary = &ranks[i];
    }
    return out;
}

// Matches the calls of every rank. Outside `strict`, a rank whose calls
// differ from most ranks' (in number, or in names) is left out with why,
// so that one rank's cut-short trace leaves the other 1,023 their view.
Matched matchAll(std::vector<RankInput>& inputs, const GpuAnalysisOptions& options, bool strict,
                 std::vector<std::string>& left_out) {
    if (!strict) {
        std::map<size_t, size_t> counts; // calls -> ranks
        for (const RankInput& in : inputs)
            ++counts[in.summary->collectives.size()];
        size_t usual = 0, most = 0;
        for (const auto& [calls, n] : counts)
            if (n > most) std::tie(usual, most) = std::tie(calls, n);
        std::vector<RankInput> kept;
        for (RankInput& in : inputs) {
            if (in.summary->collectives.size() == usual) {
                kept.push_back(std::move(in));
                continue;
            }
            left_out.push_back(
                rankName(*in.summary) + " made " + std::to_string(in.summary->collectives.size()) +
                " collective calls, " + std::to_string(most) + " of the ranks " +
                std::to_string(usual) + ": its calls cannot be matched to theirs; left out.");
        }
        inputs = std::move(kept);
    }
    for (;;) {
        Unmatched unmatched;
        Matched matched = matchCalls(inputs, options.plugin_compatible, strict, unmatched);
        if (unmatched.empty()) return matched;
        for (auto it = unmatched.rbegin(); it != unmatched.rend(); ++it) {
            left_out.push_back(it->second + " Left out.");
            inputs.erase(inputs.begin() + long(it->first));
        }
    }
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
    const int64_t median_step = medianOf(steps);
    const double threshold = kStragglerStepShare * double(median_step);
    // The median of the others, for each of 1,024 ranks, from one sorted
    // copy of every rank's value.
    const SortedValues all_comp(computations), all_step(steps);
    std::vector<int64_t> syncs;
    for (const RankView& r : ranks)
        syncs.push_back(r.average.synchronizing_ns);
    const SortedValues all_sync(syncs);
    Straggler busiest;
    for (size_t i = 0; i < ranks.size(); ++i) {
        Straggler s;
        s.rank = ranks[i].rank;
        s.worker = ranks[i].worker;
        s.computation_ns = computations[i];
        s.others_computation_ns = all_comp.medianWithout(computations[i]);
        s.step_ns = steps[i];
        s.others_step_ns = all_step.medianWithout(steps[i]);
        s.others_synchronizing_ns = all_sync.medianWithout(syncs[i]);
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
    std::vector<RankTraceSummary> summaries;
    summaries.reserve(ranks.size());
    for (const RankTrace& r : ranks) {
        summaries.push_back(summarizeRank(r, options));
        if (!summaries.back().problem.empty())
            throw std::invalid_argument(summaries.back().problem);
    }
    return computeDistributedView(std::move(summaries), options, true);
}

DistributedView computeDistributedView(std::vector<RankTraceSummary> ranks,
                                       const GpuAnalysisOptions& options, bool strict) {
    DistributedView view;
    view.plugin_compatible = options.plugin_compatible;
    std::vector<RankInput> inputs = usableRanks(ranks, strict, view.left_out);
    if (inputs.empty())
        throw std::invalid_argument(
            view.left_out.empty() ? std::string("No rank traces for the distributed view.")
                                  : "No rank forms a distributed view: " + view.left_out.front());
    if (strict) checkSameCollectiveCount(inputs);
    const Matched matched = matchAll(inputs, options, strict, view.left_out);
    const Match& match = matched.match;
    if (matched.by_seq)
        view.notes.push_back("Collective calls are matched across ranks by their process group "
                             "and sequence number (Seq).");
    dataTransferRanges(inputs, match, options.plugin_compatible, view.notes);
    // Each rank's own figures, in parallel: 1,024 ranks of 1,000 steps.
    view.ranks.resize(inputs.size());
    parallelFor(inputs.size(), ThreadPool::shared().size() + 1, [&](size_t i) {
        identity(*inputs[i].summary, i, view.ranks[i]);
        stepCosts(inputs[i], view.ranks[i], options.plugin_compatible);
        opTable(inputs[i], view.ranks[i]);
    });
    size_t outside = 0;
    for (const RankView& r : view.ranks)
        outside += r.outside_steps;
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
    for (const RankInput& in : inputs)
        if (!in.summary->steps_note.empty()) { // said once, of the lowest rank
            view.notes.push_back("Rank " + std::to_string(in.summary->rank) + ": " +
                                 in.summary->steps_note + ".");
            break;
        }
    findStragglers(view);
    std::vector<const RankTraceSummary*> kept;
    for (const RankInput& in : inputs)
        kept.push_back(in.summary);
    measureArrivals(view, kept, match);
    addIdentityNotes(view);
    measureSpreads(view);
    return view;
}

} // namespace ts
