#pragma once
// Growing a reader's vectors to the size the whole input will need, instead
// of doubling: a doubling vector ends with up to twice the memory it needs
// and, while it copies, holds its old and new buffers at once. On a 1 GB
// trace those two made most of the gap between the finished trace and the
// reader's peak.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace ts {

// `scale`: the whole input over the part read so far (0 when unknown: the
// vector grows as usual). A full vector is given room for its size times the
// scale, 5% more for the estimate's error, and at least a quarter more, so
// that an estimate too low still costs few copies.
template <typename T> void growAhead(std::vector<T>& v, double scale) {
    if (v.size() < v.capacity() || scale <= 1.0) return;
    const size_t n = v.size();
    const auto expected = static_cast<size_t>(static_cast<double>(n) * scale * 1.05);
    v.reserve(std::max(n + n / 4 + 16, expected));
}

// shrink_to_fit only where the room left is more than an eighth of the
// size: growAhead's estimate leaves about 5%, and copying a vector of a
// million memory events to give that back cost a tenth of a second of the
// serial end of a 1 GB read.
template <typename T> void shrinkIfRoomy(std::vector<T>& v) {
    if (v.capacity() - v.size() > v.size() / 8) v.shrink_to_fit();
}

} // namespace ts
