// The snapshot reader's memo (core/snapshot/SnapshotRecords.h, SnapshotMemo):
// pages that hold nothing but a run of consecutive trace entries are kept
// as their first entry's number; every slot reads back as it was set,
// whatever the pickle does after (a slot of a page kept as a run set again,
// a jump past pages never set).
#include <gtest/gtest.h>

#include "snapshot/SnapshotRecords.h"

namespace ts {
namespace {

TEST(SnapshotMemo, RunsOfTraceEntriesReadBackAsSet) {
    SnapshotMemo memo;
    // Three strings, then 10,000 trace entries, as a snapshot's keys and entries.
    for (uint32_t i = 0; i < 3; ++i)
        memo.set(i, {PV::Tag::Str, 40 + i});
    for (uint32_t e = 0; e < 10000; ++e)
        memo.set(3 + e, {PV::Tag::Event, 7 + e});
    ASSERT_EQ(memo.size(), 10003u);
    for (uint32_t i = 0; i < 3; ++i)
        EXPECT_EQ(memo.at(i).tag, PV::Tag::Str);
    for (uint32_t e = 0; e < 10000; ++e) {
        const MemoEntry m = memo.at(3 + e);
        ASSERT_EQ(m.tag, PV::Tag::Event) << e;
        ASSERT_EQ(m.id, 7 + e) << e;
    }
    // A slot in the middle of a page kept as a run, set again (a dict the
    // pickle memoized there made into its record later): that slot alone changes.
    memo.set(5000, {PV::Tag::Stack, 3});
    EXPECT_EQ(memo.at(5000).tag, PV::Tag::Stack);
    EXPECT_EQ(memo.at(4999).id, 7 + 4996u);
    EXPECT_EQ(memo.at(5001).id, 7 + 4998u);
    // A jump: the pages between hold nothing.
    memo.set(100000, {PV::Tag::Str, 1});
    EXPECT_EQ(memo.size(), 100001u);
    EXPECT_EQ(memo.at(50000).tag, PV::Tag::None);
    EXPECT_EQ(memo.at(100000).tag, PV::Tag::Str);
    EXPECT_EQ(memo.at(9000).id, 7 + 8997u);
}

} // namespace
} // namespace ts
