#pragma once
// The op a TorchScript compile error says the module calls and this LibTorch
// cannot, read off the error's text (compat::errorReportText), and the
// refusal in plain words: which PyTorch release added the op or the argument
// (OpVersions), which LibTorch this Trainscope is built on (#49). No LibTorch
// here: the text and the version come in as strings.
#include <optional>
#include <string>
#include <string_view>

namespace ts {

struct UncallableOp {
    std::string op;       // "aten::scaled_dot_product_attention" (no overload)
    bool missing = true;  // no such op; false: none of its schemas takes the call
    std::string mismatch; // when !missing, why: "Keyword argument layout unknown."
    std::string argument; // the argument the mismatch names: "layout"; "" if none
};

// From a compile error's text: "Unknown builtin op: aten::foo." (missing), or
// the schemas of an op with why each does not take the call's arguments
// ("aten::to_sparse(Tensor self) -> Tensor:\n  Keyword argument layout
// unknown."). nullopt when the text names no op.
std::optional<UncallableOp> uncallableOpIn(std::string_view text);

// What follows "Cannot load TorchScript module from 'F': ": "it uses
// aten::scaled_dot_product_attention, which PyTorch 2.0 added; this
// Trainscope is built on LibTorch 1.13.1. Build it on ...". `libtorch` is
// the version it is built on ("1.13.1", TORCH_VERSION).
std::string explainUncallableOp(const UncallableOp& call, std::string_view libtorch);

} // namespace ts
