#pragma once
// Putting the files of a span in rank order, for the traces of a span
// (RankTrace) and for their summaries alike.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/RankFolder.h"

namespace ts {

// Sorts `ranks` (with .rank, .rank_source, .path) by rank. Ranks guessed
// from file names can collide: torch.profiler's default worker name is
// "<host>_<pid>", and two nodes' pids may match; then the files' order
// numbers them all. Returns the positions (after sorting) of files that
// state the same rank as the one before them (distributedInfo on both).
template <typename Rank> std::vector<size_t> orderRanks(std::vector<Rank>& ranks) {
    const auto byRank = [](const Rank& a, const Rank& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.path < b.path;
    };
    std::stable_sort(ranks.begin(), ranks.end(), byRank);
    bool guessed_collide = false;
    for (size_t i = 1; i < ranks.size(); ++i)
        guessed_collide =
            guessed_collide || (ranks[i].rank == ranks[i - 1].rank &&
                                (ranks[i].rank_source != RankSource::DistributedInfo ||
                                 ranks[i - 1].rank_source != RankSource::DistributedInfo));
    if (guessed_collide) {
        std::stable_sort(ranks.begin(), ranks.end(),
                         [](const Rank& a, const Rank& b) { return a.path < b.path; });
        for (size_t i = 0; i < ranks.size(); ++i) {
            ranks[i].rank = static_cast<int64_t>(i);
            ranks[i].rank_source = RankSource::Order;
        }
    }
    std::vector<size_t> twice;
    for (size_t i = 1; i < ranks.size(); ++i)
        if (ranks[i].rank == ranks[i - 1].rank) twice.push_back(i);
    return twice;
}

// orderRanks, and std::invalid_argument naming the first two files that
// state the same rank.
template <typename Rank> void orderRanksOrThrow(std::vector<Rank>& ranks) {
    for (size_t i : orderRanks(ranks))
        throw std::invalid_argument(ranks[i - 1].path.string() + " and " + ranks[i].path.string() +
                                    " are both rank " + std::to_string(ranks[i].rank) +
                                    " (from their " + toString(ranks[i].rank_source) + ").");
}

} // namespace ts
