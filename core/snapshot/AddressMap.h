#pragma once
// Addresses of the blocks alive at a point of a trace, to what they stand for
// (an index). Replaying a trace of millions of entries does one insert and one
// take per allocation: with open addressing and linear probing the table stays
// as small as the live blocks and each look-up is one or two cache lines,
// where std::unordered_map allocates a node per insert (a 1 GB snapshot's
// replay took 8 s with it).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

class AddressMap {
public:
    AddressMap() { rehash(64); }

    // Sets `address` to `value`, replacing what it had.
    void insert(int64_t address, uint64_t value);
    // Its value, and removes it; false if it is not there.
    bool take(int64_t address, uint64_t* value);
    bool contains(int64_t address) const;
    // Its value, to change in place; null if it is not there (valid until the next insert).
    uint64_t* find(int64_t address);
    size_t size() const { return count_; }

private:
    static constexpr int64_t kEmpty = INT64_MIN; // no block has this address
    size_t slot(int64_t address) const;
    void rehash(size_t capacity);

    std::vector<int64_t> keys_;
    std::vector<uint64_t> values_;
    size_t mask_ = 0, count_ = 0;
    bool has_empty_key_ = false; // kEmpty itself, kept aside
    uint64_t empty_key_value_ = 0;
};

} // namespace ts
