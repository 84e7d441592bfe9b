#pragma once
// Re-spaces the JSON text of an array the way the nlohmann reader prints it
// (spacedJson: ", " between elements, nothing else), straight from the file's
// text: the simdjson reader's "Input Dims", "Input type" and "Concrete
// Inputs" then intern the same strings as the nlohmann reader.
#include <string>
#include <string_view>

namespace ts {

// Appends the re-spaced `raw` (one JSON array, whitespace around it allowed)
// to `out`. Arrays of integers and of strings without escapes are re-emitted
// token by token; anything else (floats, escapes, objects) goes through
// nlohmann so that its number and string printing is used exactly. Throws
// std::invalid_argument when `raw` is not valid JSON.
void appendRespacedArray(std::string& out, std::string_view raw);
// Whether appendRespacedArray would append `raw` unchanged (no whitespace
// around it): then the text can be used as it is, without a copy.
bool isRespacedArray(std::string_view raw);

} // namespace ts
