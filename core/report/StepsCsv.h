#pragma once
// steps.csv: one row per training step, every phase in milliseconds.
#include <cstdint>
#include <filesystem>
#include <optional>
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

// When a file was last written, in nanoseconds of the file system's clock
// (st_mtim); -1 if it cannot be read. A follower compares files with a file
// written at its start, not with the system clock: the kernel stamps files
// with a coarser clock that can lag behind it by a few milliseconds.
int64_t fileWriteTimeNs(const std::filesystem::path& path);

// The write time (as fileWriteTimeNs) and size of a file, from one stat();
// nullopt if it cannot be read.
struct FileStamp {
    int64_t write_ns = 0;
    uint64_t size = 0;
    bool operator==(const FileStamp& o) const { return write_ns == o.write_ns && size == o.size; }
};
std::optional<FileStamp> fileStamp(const std::filesystem::path& path);

// Reads a steps.csv that another process is still writing: each readNew()
// returns the rows completed since the previous call (none while the file
// does not exist yet; a partly written last line waits for the next call).
// Throws RunFormatError on a foreign header; a malformed complete row is
// skipped and its error kept for takeErrors().
//
// A file replaced or cut shorter than what was read (a job resumed in its
// folder rewrites steps.csv up to its checkpoint, aside and renamed) is read
// again from its start, without repeating the steps already returned: the
// rows up to the highest global step returned are skipped, so a step done
// again after the cut keeps the value first read. A file truncated in place
// and grown past the offset read between two calls is not noticed (Trainscope
// replaces its records by renaming).
// `not_before_ns` (fileWriteTimeNs's clock): a file last written before then
// is left from an earlier process and reads as not written yet, until the
// job being followed writes it.
class StepsCsvTail {
public:
    explicit StepsCsvTail(std::filesystem::path path, int64_t not_before_ns = 0)
        : path_(std::move(path)), not_before_ns_(not_before_ns) {}
    std::vector<StepRecord> readNew();
    const std::filesystem::path& path() const { return path_; }
    // Errors of the rows skipped since the previous call.
    std::vector<std::string> takeErrors() { return std::exchange(errors_, {}); }

private:
    std::filesystem::path path_;
    int64_t not_before_ns_ = 0;
    uint64_t device_ = 0, inode_ = 0;         // of the file read so far
    std::optional<int64_t> last_step_;        // the highest global step returned
    std::optional<int64_t> repeated_through_; // after a rewrite: steps returned before
    size_t offset_ = 0;                       // bytes of whole lines consumed
    size_t columns_ = 0;                      // 0 until the header has been read
    int line_no_ = 0;
    std::vector<std::string> errors_;
};

} // namespace ts
