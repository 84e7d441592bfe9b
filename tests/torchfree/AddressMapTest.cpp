// The open-addressing map of live block addresses the snapshot replay uses:
// against std::unordered_map over a random mix of inserts, takes and
// look-ups, with clustered (aligned) addresses as the allocator makes them
// and the one address that is the table's empty mark.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>

#include "snapshot/AddressMap.h"

namespace ts {
namespace {

TEST(AddressMap, BehavesAsAHashMap) {
    std::mt19937_64 rng(7);
    AddressMap map;
    std::unordered_map<int64_t, uint64_t> reference;
    for (int i = 0; i < 200000; ++i) {
        // Few distinct addresses, 512-aligned, so that runs collide and wrap.
        int64_t address = 0x7f0000000000 + int64_t(rng() % 5000) * 512;
        if (rng() % 97 == 0) address = INT64_MIN;
        const uint64_t op = rng() % 3;
        if (op == 0) {
            map.insert(address, uint64_t(i));
            reference[address] = uint64_t(i);
        } else if (op == 1) {
            uint64_t value = 0;
            const auto it = reference.find(address);
            ASSERT_EQ(map.take(address, &value), it != reference.end()) << i;
            if (it != reference.end()) {
                EXPECT_EQ(value, it->second);
                reference.erase(it);
            }
        } else {
            ASSERT_EQ(map.contains(address), reference.count(address) == 1) << i;
        }
        ASSERT_EQ(map.size(), reference.size());
    }
    for (const auto& [address, value] : reference) {
        uint64_t got = 0;
        ASSERT_TRUE(map.take(address, &got));
        EXPECT_EQ(got, value);
    }
    EXPECT_EQ(map.size(), 0u);
}

} // namespace
} // namespace ts
