#pragma once
// What the fuzz targets share: cutting one input into several files, a
// scratch folder for readers that only take paths, and how a broken property
// is reported (an abort, so libFuzzer keeps the input as a crash).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ts::fuzz {

// The input cut at every `separator` byte into at most `max_parts` parts (the
// last part keeps any further separators). Multi-file targets take their
// files this way, so a seed is the files joined by the separator.
std::vector<std::string> splitInput(const uint8_t* data, size_t size, char separator,
                                    size_t max_parts);

// A folder of this process, emptied at each call of fresh() and removed at
// exit: in /dev/shm when there is one (the readers are driven through files
// thousands of times a second), else in the temporary directory.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    // The folder, emptied.
    const std::filesystem::path& fresh();
    void write(const std::string& name, const std::string& bytes) const;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A property of the reader does not hold for this input: prints `what` and
// aborts, which libFuzzer records as a crash with the input.
[[noreturn]] void propertyBroken(const std::string& what);

} // namespace ts::fuzz
