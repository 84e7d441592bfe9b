#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace ts {

// Writes a file that readers (and a crash) see whole or not at all: the
// contents go into an unnamed file in the same directory (O_TMPFILE), which
// is named and renamed over `path` once complete; a process killed while
// writing leaves no file behind. Where the file system has no unnamed files,
// through a named `<path>.tmp-<pid>` instead. Throws naming `path` on failure.
void writeFileAtomically(const std::filesystem::path& path, const std::string& contents);
// Same, for writers that produce the file themselves (e.g. torch::save): they
// get the path to write to (a /proc/self/fd link to the unnamed file).
void writeAtomically(const std::filesystem::path& path,
                     const std::function<void(const std::filesystem::path& tmp)>& write);

// The whole file, or nullopt when it cannot be opened or read.
std::optional<std::string> readWholeFile(const std::filesystem::path& path);

// Removes the `<name>.tmp-<pid>` files that writers which no longer run left
// in `dir` (killed mid-write on a file system without unnamed files, or by
// older versions); returns how many.
int removeStaleTempFiles(const std::filesystem::path& dir);

} // namespace ts
