// The pickle machine on plain Python data (bytes from pickle.dumps), without
// LibTorch: the weights readers build tensors through its hooks.
#include <cstdint>

#include <gtest/gtest.h>

#include "pickle/PickleError.h"
#include "pickle/TensorLayout.h"
#include "pickle/Unpickler.h"

namespace ts {
namespace {

using pickle::Kind;
using pickle::ValuePtr;

// pickle.dumps({'a': [1, -300, 2.5, True, 70000], 'b': (None, 'x'),
//               'c': {'d': b'\x01\x02'}, 'e': -2**40}, protocol=P)
const char kProtocol0[] =
    "(dp0\nVa\np1\n(lp2\nI1\naI-300\naF2.5\naI01\naI70000\nasVb\np3\n(NVx\np4\ntp5\nsVc\np6"
    "\n(dp7\nVd\np8\nc_codecs\nencode\np9\n(V\001\002\np10\nVlatin1\np11\ntp12\nRp13\nssVe"
    "\np14\nL-1099511627776L\ns.";
const char kProtocol2[] =
    "\200\002}q\000(X\001\000\000\000aq\001]q\002(K\001J\324\376\377\377G@\004\000\000\000"
    "\000\000\000\210Jp\021\001\000eX\001\000\000\000bq\003NX\001\000\000\000xq\004\206q"
    "\005X\001\000\000\000cq\006}q\007X\001\000\000\000dq\010c_codecs\nencode\nq\011X\002"
    "\000\000\000\001\002q\nX\006\000\000\000latin1q\013\206q\014Rq\015sX\001\000\000\000eq"
    "\016\212\006\000\000\000\000\000\377u.";
const char kProtocol4[] =
    "\200\004\225J\000\000\000\000\000\000\000}\224(\214\001a\224]\224(K\001J\324\376\377"
    "\377G@\004\000\000\000\000\000\000\210Jp\021\001\000e\214\001b\224N\214\001x\224\206"
    "\224\214\001c\224}\224\214\001d\224C\002\001\002\224s\214\001e\224\212\006\000\000\000"
    "\000\000\377u.";

template <size_t N> std::string bytesOf(const char (&literal)[N]) {
    return {literal, N - 1};
}

ValuePtr run(const std::string& bytes) {
    return pickle::unpickle(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                            "'test.pkl'", {});
}

void expectSample(const ValuePtr& top, bool bytes_decoded) {
    ASSERT_EQ(top->kind, Kind::Dict);
    ASSERT_EQ(top->entries.size(), 4u);
    const ValuePtr a = top->get("a");
    ASSERT_TRUE(a && a->kind == Kind::List && a->items.size() == 5);
    EXPECT_EQ(a->items[0]->integer, 1);
    EXPECT_EQ(a->items[1]->integer, -300);
    EXPECT_EQ(a->items[2]->kind, Kind::Float);
    EXPECT_DOUBLE_EQ(a->items[2]->real, 2.5);
    EXPECT_EQ(a->items[3]->kind, Kind::Bool);
    EXPECT_EQ(a->items[3]->integer, 1);
    EXPECT_EQ(a->items[4]->integer, 70000);
    const ValuePtr b = top->get("b");
    ASSERT_TRUE(b && b->kind == Kind::Tuple && b->items.size() == 2);
    EXPECT_EQ(b->items[0]->kind, Kind::None);
    EXPECT_EQ(b->items[1]->text, "x");
    const ValuePtr d = top->get("c")->get("d");
    ASSERT_TRUE(d);
    if (bytes_decoded) {
        EXPECT_EQ(d->kind, Kind::Bytes);
        EXPECT_EQ(d->text, std::string("\x01\x02"));
    } else {
        EXPECT_EQ(d->kind, Kind::Opaque); // _codecs.encode(...) is not evaluated
        EXPECT_EQ(d->text, "_codecs.encode");
    }
    EXPECT_EQ(top->get("e")->integer, -(int64_t(1) << 40));
}

TEST(Pickle, ReadsProtocolZeroTwoAndFour) {
    expectSample(run(bytesOf(kProtocol0)), false);
    expectSample(run(bytesOf(kProtocol2)), false);
    expectSample(run(bytesOf(kProtocol4)), true);
}

TEST(Pickle, TruncatedOrUnknownInputNamesTheOrigin) {
    const std::string sample = bytesOf(kProtocol4);
    for (size_t cut : {size_t(1), size_t(20), sample.size() - 1}) {
        try {
            run(sample.substr(0, cut));
            ADD_FAILURE() << "no error for a pickle cut at " << cut;
        } catch (const pickle::PickleError& e) {
            EXPECT_NE(std::string(e.what()).find("'test.pkl'"), std::string::npos) << e.what();
        }
    }
    try {
        run(bytesOf("\x80\x02\xff."));
        ADD_FAILURE() << "no error for opcode 0xff";
    } catch (const pickle::PickleError& e) {
        EXPECT_NE(std::string(e.what()).find("opcode 0xff"), std::string::npos) << e.what();
    }
    EXPECT_THROW(run(bytesOf("h\x05.")), pickle::PickleError); // memo entry never stored
    EXPECT_THROW(run(bytesOf(".")), pickle::PickleError);      // STOP on an empty stack
}

// Python pickles a list or dict that holds itself; no checkpoint has one, and
// the shared values here would leak it: refused, naming the file. A value
// shared twice without a cycle reads (found by the pickle fuzz target).
TEST(Pickle, AnObjectHoldingItselfIsRefused) {
    // l = []; l.append(l); pickle.dumps(l, protocol=2)
    const char list[] = "\200\002]q\000h\000a.";
    // d = {}; d['me'] = d; pickle.dumps(d, protocol=4)
    const char dict[] = "\200\004\225\013\000\000\000\000\000\000\000}\224\214\002me\224h\000s.";
    for (const std::string& bytes : {bytesOf(list), bytesOf(dict)}) {
        try {
            run(bytes);
            ADD_FAILURE() << "no error for a self-referencing object";
        } catch (const pickle::PickleError& e) {
            EXPECT_NE(std::string(e.what()).find("holds itself"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("'test.pkl'"), std::string::npos) << e.what();
        }
    }
    // shared = [1, 2]; pickle.dumps({'x': shared, 'y': (shared,)}, protocol=2)
    const char shared[] = "\200\002}q\000(X\001\000\000\000xq\001]q\002(K\001K\002eX\001"
                          "\000\000\000yq\003h\002\205q\004u.";
    const ValuePtr top = run(bytesOf(shared));
    ASSERT_EQ(top->entries.size(), 2u);
    EXPECT_EQ(top->get("x"), top->get("y")->items.at(0));
}

// 200,000 lists, each appended to the one before (EMPTY_LIST x n, APPEND x
// n-1): read in linear time (no search for cycles through fresh lists) and
// released without recursing 200,000 levels deep.
TEST(Pickle, ADeepNestReadsAndIsReleasedWithoutRecursion) {
    constexpr size_t kDepth = 200000;
    std::string bytes = "\x80\x02";
    bytes.append(kDepth, ']');
    bytes.append(kDepth - 1, 'a');
    bytes += '.';
    ValuePtr top = run(bytes);
    size_t depth = 1;
    for (const pickle::Value* v = top.get(); !v->items.empty(); v = v->items[0].get())
        ++depth;
    EXPECT_EQ(depth, kDepth);
    top.reset();
}

TEST(Pickle, DuplicateDictKeysKeepTheirPlace) {
    // pickle of {'k': 1} then SETITEM 'j'=2 and SETITEM 'k'=3 (hand-assembled).
    const char bytes[] =
        "\200\002}(X\001\000\000\000kK\001uX\001\000\000\000jK\002sX\001\000\000\000kK\003s.";
    const ValuePtr top = run(bytesOf(bytes));
    ASSERT_EQ(top->entries.size(), 2u);
    EXPECT_EQ(top->entries[0].first->text, "k");
    EXPECT_EQ(top->entries[0].second->integer, 3);
    EXPECT_EQ(top->get("j")->integer, 2);
}

// The arguments (storage, offset, size, stride) of a rebuild call.
std::vector<ValuePtr> rebuildArgs(const pickle::ValuePtr& offset, std::vector<int64_t> sizes,
                                  std::vector<int64_t> strides) {
    auto tuple = [](const std::vector<int64_t>& xs) {
        ValuePtr t = pickle::Value::make(Kind::Tuple);
        for (const int64_t x : xs)
            t->items.push_back(pickle::Value::makeInt(x));
        return t;
    };
    return {pickle::Value::make(Kind::Storage), offset, tuple(sizes), tuple(strides)};
}

pickle::TensorLayout layoutOf(int64_t offset, std::vector<int64_t> sizes,
                              std::vector<int64_t> strides) {
    return {offset, std::move(sizes), std::move(strides)};
}

TEST(TensorLayout, ReadsOffsetSizeAndStrideOrSaysWhatIsWrong) {
    pickle::TensorLayout layout;
    EXPECT_EQ(
        pickle::readTensorLayout(rebuildArgs(pickle::Value::makeInt(2), {3, 4}, {4, 1}), layout),
        "");
    EXPECT_EQ(layout.offset, 2);
    EXPECT_EQ(layout.sizes, (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(layout.strides, (std::vector<int64_t>{4, 1}));

    auto args = rebuildArgs(pickle::Value::makeInt(0), {3}, {1});
    args[2] = pickle::Value::makeText(Kind::String, "3");
    EXPECT_EQ(pickle::readTensorLayout(args, layout), "a tensor's size is not a tuple");
    args = rebuildArgs(pickle::Value::makeInt(0), {3}, {1});
    args[3]->items[0] = pickle::Value::makeInt(-1);
    EXPECT_EQ(pickle::readTensorLayout(args, layout),
              "a tensor's stride holds a non-integer or negative entry");
    EXPECT_EQ(
        pickle::readTensorLayout(rebuildArgs(pickle::Value::make(Kind::None), {3}, {1}), layout),
        "a tensor has an invalid offset or stride");
    EXPECT_EQ(pickle::readTensorLayout(rebuildArgs(pickle::Value::makeInt(0), {3, 1}, {1}), layout),
              "a tensor has an invalid offset or stride");
    args.resize(3);
    EXPECT_EQ(pickle::readTensorLayout(args, layout), "a tensor lacks its offset, size or stride");
}

TEST(TensorLayout, AViewInsideItsStoragePassesAndOnePastTheEndDoesNot) {
    // 3 x 4 row-major over 12 elements; from offset 1 it needs 13.
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(0, {3, 4}, {4, 1}), 12), "");
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(1, {3, 4}, {4, 1}), 12),
              "a tensor reaches past the end of its storage");
    // A transposed view and a broadcast (stride 0) one reach the same last element.
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(0, {4, 3}, {1, 4}), 12), "");
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(11, {1000}, {0}), 12), "");
    // A scalar is its offset; an empty view reaches nothing, whatever its offset.
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(11, {}, {}), 12), "");
    EXPECT_NE(pickle::checkTensorLayout(layoutOf(12, {}, {}), 12), "");
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(500, {0, 7}, {7, 1}), 12), "");
    EXPECT_NE(pickle::checkTensorLayout(layoutOf(0, {1}, {1}), 0), "");
}

// Numbers from the file that wrap int64 arithmetic must not pass as small:
// (2^62 + 1 - 1) * 4 is 2^64, which wraps to 0.
TEST(TensorLayout, SizesAndStridesThatOverflowAreRefused) {
    const std::string overflow =
        "a tensor's size and stride reach past any storage (they overflow 64 bits)";
    constexpr int64_t kMax = INT64_MAX;
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(0, {(int64_t(1) << 62) + 1}, {4}), 4), overflow);
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(kMax, {2}, {1}), 4), overflow);
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(0, {kMax, kMax}, {1, 1}), 4), overflow);
    // Two dimensions whose reaches each fit but whose sum does not.
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(0, {2, 2}, {kMax / 2 + 1, kMax / 2 + 1}), 4),
              overflow);
    // Large but representable: refused as past the end, not as overflow.
    EXPECT_EQ(pickle::checkTensorLayout(layoutOf(0, {int64_t(1) << 40}, {1}), 4),
              "a tensor reaches past the end of its storage");
}

TEST(TensorLayout, StorageBytesRefusesNegativeAndOverflowingCounts) {
    uint64_t bytes = 7;
    EXPECT_TRUE(pickle::storageBytes(5, 4, bytes));
    EXPECT_EQ(bytes, 20u);
    EXPECT_TRUE(pickle::storageBytes(0, 8, bytes));
    EXPECT_EQ(bytes, 0u);
    bytes = 7;
    EXPECT_FALSE(pickle::storageBytes(-1, 4, bytes));
    EXPECT_FALSE(pickle::storageBytes(int64_t(1) << 62, 8, bytes));
    EXPECT_EQ(bytes, 7u);
}

} // namespace
} // namespace ts
