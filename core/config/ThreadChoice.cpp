#include "config/ThreadChoice.h"

#include <algorithm>

namespace ts {

ThreadChoice chooseIntraOpThreads(int requested, int workers, int usable_cores, int local_ranks) {
    ThreadChoice choice;
    if (requested > 0) {
        choice.threads = requested;
        choice.reason = "threads=" + std::to_string(requested) + " as configured";
        return choice;
    }
    const int cores = std::max(1, usable_cores);
    const int ranks = std::max(1, local_ranks);
    const int per_rank = std::max(1, cores / ranks);
    const int for_loaders = std::min(std::max(0, workers), per_rank / 4);
    choice.threads = std::max(1, per_rank - for_loaders);
    choice.reason = std::to_string(cores) + " usable core(s) (CPU affinity)";
    if (ranks > 1)
        choice.reason += ", " + std::to_string(per_rank) + " for each of " + std::to_string(ranks) +
                         " local ranks";
    if (for_loaders > 0)
        choice.reason += ", " + std::to_string(for_loaders) + " left to the " +
                         std::to_string(workers) + " loader worker(s)";
    choice.reason += ": " + std::to_string(choice.threads) + " intra-op thread(s) (threads=0)";
    return choice;
}

} // namespace ts
