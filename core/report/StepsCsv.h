#pragma once
// steps.csv: one row per training step, every phase in milliseconds.
#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "records/Records.h"

namespace ts {

std::string stepsCsvHeader();
std::string stepsCsvRow(const StepRecord& step);
// Throws RunFormatError naming the file and line on malformed rows.
std::vector<StepRecord> readStepsCsv(const std::filesystem::path& path);

// Reads a steps.csv that another process is still writing: each readNew()
// returns the rows completed since the previous call (none while the file
// does not exist yet; a partly written last line waits for the next call).
// Throws RunFormatError on a foreign header; a malformed complete row is
// skipped and its error kept for takeErrors().
class StepsCsvTail {
public:
    explicit StepsCsvTail(std::filesystem::path path) : path_(std::move(path)) {}
    std::vector<StepRecord> readNew();
    const std::filesystem::path& path() const { return path_; }
    // Errors of the rows skipped since the previous call.
    std::vector<std::string> takeErrors() { return std::exchange(errors_, {}); }

private:
    std::filesystem::path path_;
    size_t offset_ = 0;  // bytes of whole lines consumed
    size_t columns_ = 0; // 0 until the header has been read
    int line_no_ = 0;
    std::vector<std::string> errors_;
};

} // namespace ts
