#pragma once
#include <filesystem>
#include <functional>
#include <string>

namespace ts {

// Writes through a temporary file in the same directory and renames it over
// `path`, so readers (and a crash) never see a half-written file.
void writeFileAtomically(const std::filesystem::path& path, const std::string& contents);
// Same, for writers that produce the file themselves (e.g. torch::save).
void writeAtomically(const std::filesystem::path& path,
                     const std::function<void(const std::filesystem::path& tmp)>& write);

} // namespace ts
