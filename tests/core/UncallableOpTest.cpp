// The op a TorchScript compile error names and the release that added it
// (models/OpVersions, models/UncallableOp), on the texts LibTorch 1.13.1's
// compiler gives for modules PyTorch 2.15 saved.
#include <gtest/gtest.h>

#include "models/OpVersions.h"
#include "models/UncallableOp.h"

namespace ts {
namespace {

TEST(OpVersions, NamesTheFirstReleaseOfOpsOverloadsAndArguments1_13Lacks) {
    EXPECT_EQ(firstReleaseWith("aten::scaled_dot_product_attention"), "2.0");
    EXPECT_EQ(firstReleaseWith("scaled_dot_product_attention"), "2.0");
    EXPECT_EQ(firstReleaseWith("aten::rms_norm"), "2.4");
    EXPECT_EQ(firstReleaseWith("aten::_assert_async.msg"), "2.1");          // a new overload
    EXPECT_EQ(firstReleaseWith("aten::rms_norm.whatever"), "2.4");          // by its op's name
    EXPECT_EQ(firstReleaseWith("aten::to_sparse(layout)"), "2.0");          // a new argument
    EXPECT_EQ(firstReleaseWith("aten::pad_sequence(padding_side)"), "2.5"); // likewise
    EXPECT_EQ(firstReleaseWith("aten::add"), std::nullopt);                 // 1.13 has it
    EXPECT_EQ(firstReleaseWith("aten::add.Tensor"), std::nullopt);
    EXPECT_EQ(firstReleaseWith("aten::relu_from_pytorch_9"), std::nullopt);
    EXPECT_EQ(firstReleaseWith("torchvision::nms"), std::nullopt); // in no release's ATen
    EXPECT_EQ(firstReleaseWith("prim::device"), std::nullopt);
    EXPECT_EQ(argumentsAddedTo("aten::pad_sequence"),
              std::vector<std::string>{"padding_side (2.5)"});
    EXPECT_EQ(argumentsAddedTo("aten::add"), std::vector<std::string>{});
    EXPECT_FALSE(newestReleaseRead().empty());
}

UncallableOp parsed(const std::string& text) {
    const auto call = uncallableOpIn(text);
    EXPECT_TRUE(call) << text;
    return call.value_or(UncallableOp{});
}

TEST(UncallableOp, ReadsAnUnknownBuiltinOp) {
    const auto call =
        parsed("\nUnknown builtin op: aten::scaled_dot_product_attention.\n"
               "Here are some suggestions: \n\taten::_scaled_dot_product_attention\n");
    EXPECT_EQ(call.op, "aten::scaled_dot_product_attention");
    EXPECT_TRUE(call.missing);
    EXPECT_EQ(explainUncallableOp(call, "1.13.1"),
              "it uses aten::scaled_dot_product_attention, which PyTorch 2.0 added; this "
              "Trainscope is built on LibTorch 1.13.1. Build Trainscope on LibTorch 2.0 or later "
              "(scripts/torch2.sh), or script and save the model with PyTorch 1.13.1 (without "
              "that op).");
    EXPECT_EQ(parsed("Unknown builtin op: torchvision::nms.\nCould not find any similar ops").op,
              "torchvision::nms");
}

TEST(UncallableOp, ReadsAnOpWhoseSchemasDoNotTakeTheCall) {
    // Several variants: the one naming an argument says what is missing.
    const auto sparse =
        parsed("Arguments for call are not valid.\nThe following variants are available:\n  \n"
               "  aten::to_sparse.sparse_dim(Tensor self, int sparse_dim) -> Tensor:\n"
               "  Argument sparse_dim not provided.\n  \n"
               "  aten::to_sparse(Tensor self) -> Tensor:\n  Keyword argument layout unknown.\n  \n"
               "  aten::to_sparse.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!):\n"
               "  Argument out not provided.\n");
    EXPECT_EQ(sparse.op, "aten::to_sparse");
    EXPECT_FALSE(sparse.missing);
    EXPECT_EQ(sparse.argument, "layout");
    EXPECT_EQ(sparse.mismatch, "Keyword argument layout unknown.");
    // One variant, too many positional arguments: the arguments added since.
    const auto pad = parsed("\naten::pad_sequence(Tensor[] sequences, bool batch_first=False, "
                            "float padding_value=0.) -> Tensor:\nExpected at most 3 arguments "
                            "but found 4 positional arguments.\n");
    EXPECT_EQ(pad.op, "aten::pad_sequence");
    EXPECT_EQ(pad.argument, "");
    EXPECT_NE(explainUncallableOp(pad, "1.13.1")
                  .find("PyTorch 2.5 added its argument "
                        "padding_side. Build Trainscope on "
                        "LibTorch 2.5 or later"),
              std::string::npos);
    // A type the schema does not take names an argument no release added.
    const auto typed = parsed("aten::var.correction(Tensor self, int[1]? dim=None, *, int? "
                              "correction=None, bool keepdim=False) -> Tensor:\nExpected a "
                              "value of type 'Optional[int]' for argument 'correction' but "
                              "instead found type 'float'.\n");
    EXPECT_EQ(typed.op, "aten::var");
    EXPECT_EQ(typed.argument, "correction");
    EXPECT_NE(explainUncallableOp(typed, "1.13.1").find("a model saved by a newer PyTorch?"),
              std::string::npos);
}

TEST(UncallableOp, SaysWhatItCanOfOpsNoReleaseListsAndOfRemovedOnes) {
    EXPECT_EQ(
        explainUncallableOp(parsed("Unknown builtin op: aten::relu_from_pytorch_9.\n"), "1.13.1"),
        "it uses aten::relu_from_pytorch_9, which LibTorch 1.13.1 does not have and no "
        "PyTorch release up to " +
            newestReleaseRead() + " declares: a corrupt file, or an op of a patched PyTorch?");
    EXPECT_NE(explainUncallableOp(parsed("Unknown builtin op: prim::NewThing.\n"), "2.15.0")
                  .find("prim::NewThing, which is not an op of this LibTorch (2.15.0)"),
              std::string::npos);
    // On a LibTorch at or past the release that added it, a later one removed it.
    EXPECT_NE(explainUncallableOp(parsed("Unknown builtin op: aten::rms_norm.\n"), "2.15.0")
                  .find("lacks though PyTorch 2.4 added it: a later release removed it"),
              std::string::npos);
    // Texts that name no op.
    EXPECT_FALSE(uncallableOpIn("Unknown type name 'Foo':\n"));
    EXPECT_FALSE(uncallableOpIn(""));
    EXPECT_FALSE(uncallableOpIn("Unknown builtin op: .\n"));
}

} // namespace
} // namespace ts
