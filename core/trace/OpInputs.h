#pragma once
// The inputs of one operator as traces record them, in torch.profiler's text
// forms: dims "[[32, 3, 32, 32], [64, 3, 3, 3], [], []]" (empty for
// non-tensors), types ["float", "float", "", ""] and concrete non-tensor
// values ["", "", "[1, 1]", "1"]. Parsing is lenient: malformed text gives
// empty lists, never an exception.
#include <cstdint>
#include <string>
#include <vector>

namespace ts {

using Dims = std::vector<int64_t>;

struct OpInputs {
    std::vector<Dims> dims;
    std::vector<std::string> types;
    std::vector<std::string> args;

    size_t size() const { return dims.size(); }
    const Dims& dimsAt(size_t i) const;        // empty when absent
    const std::string& argAt(size_t i) const;  // "" when absent
    const std::string& typeAt(size_t i) const; // "" when absent
};

std::string formatDims(const std::vector<Dims>& dims);
void appendDims(std::string& out, const int64_t* sizes, size_t count);
std::vector<Dims> parseDims(const std::string& text);
std::string formatStringList(const std::vector<std::string>& items);
std::vector<std::string> parseStringList(const std::string& text);
// "[1, 2]" -> {1, 2}; "3" -> {3}; anything else -> {}.
std::vector<int64_t> parseIntList(const std::string& value);
// Bytes per element of a dtype name ("float", "c10::Half", "long int", ...);
// 4 when unknown.
int elementSize(const std::string& type_name);
int64_t numel(const Dims& dims);

} // namespace ts
