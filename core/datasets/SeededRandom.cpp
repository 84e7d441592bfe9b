#include "datasets/SeededRandom.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace ts {

std::vector<int64_t> epochOrder(int64_t size, bool shuffle, uint64_t seed, int epoch) {
    std::vector<int64_t> order(size_t(std::max<int64_t>(size, 0)));
    std::iota(order.begin(), order.end(), int64_t(0));
    if (!shuffle) return order;
    SplitMix64 random{mixSeeds(seed, uint64_t(int64_t(epoch)))};
    for (int64_t i = size - 1; i > 0; --i) {
        // Modulo bias is below 2^-40 for any realistic dataset size.
        const auto j = int64_t(random.next() % uint64_t(i + 1));
        std::swap(order[size_t(i)], order[size_t(j)]);
    }
    return order;
}

int64_t shardSize(int64_t size, int rank, int count, bool pad) {
    if (count <= 1) return size;
    if (pad) return (size + count - 1) / count;
    return size / count + (rank < size % count ? 1 : 0);
}

std::vector<int64_t> shardOrder(const std::vector<int64_t>& order, int rank, int count, bool pad) {
    if (count <= 1) return order;
    const auto size = int64_t(order.size());
    const int64_t total = pad ? shardSize(size, rank, count, true) * count : size;
    std::vector<int64_t> part;
    part.reserve(size_t(shardSize(size, rank, count, pad)));
    for (int64_t i = rank; i < total && size > 0; i += count)
        part.push_back(order[size_t(i % size)]);
    return part;
}

} // namespace ts
