#pragma once
// The first PyTorch release whose ATen has an operator that PyTorch 1.13.1
// lacks, from the table scripts/torch_op_versions.py generates
// (OpVersions.inc, read off each release's native_functions.yaml): what a
// TorchScript module saved by a newer PyTorch needs of the LibTorch that
// loads it (#49). No LibTorch here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

// "2.0" for "aten::scaled_dot_product_attention" (or without "aten::"), for a
// new overload ("aten::_assert_async.msg") and for a new argument of an op
// 1.13.1 has ("aten::to_sparse(layout)"). An overload the table does not
// list is looked up by its op's name. nullopt for an op 1.13.1 has, one no
// release up to newestReleaseRead() declares, and any op outside aten::
// (prim::, torchvision::, a custom op): those are in no release's ATen.
std::optional<std::string> firstReleaseWith(std::string_view op);

// The arguments of an op 1.13.1 has that later releases added, each as
// "padding_side (2.5)", in the order of the table.
std::vector<std::string> argumentsAddedTo(std::string_view op);

// The newest release the table was made from: "2.15".
std::string newestReleaseRead();

} // namespace ts
