#include "report/StepsCsv.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/JsonNumbers.h"
#include "report/RunDirectory.h"

namespace ts {
namespace {

// Column order is the file format: append new columns at the end only. After
// these come the memory categories (kMemoryCategoryFields' keys).
const char* const kColumns[] = {"epoch",
                                "step",
                                "global_step",
                                "batch_size",
                                "data_ms",
                                "copy_ms",
                                "forward_ms",
                                "backward_ms",
                                "optimizer_ms",
                                "other_ms",
                                "step_ms",
                                "images_per_sec",
                                "loss",
                                "lr",
                                "correct",
                                "skipped",
                                "loss_scale",
                                "tensor_bytes",
                                "tensor_peak_bytes",
                                "rss_bytes",
                                "device_bytes",
                                "device_peak_bytes",
                                "wall_s",
                                "profiled",
                                "page_faults",
                                "allreduce_ms",
                                "comm_wait_ms"};
// Files written before page_faults was added end at "profiled"; they still read.
constexpr size_t kFirstFormatColumns = 24;

const std::vector<std::string>& columnNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all(std::begin(kColumns), std::end(kColumns));
        for (const MemoryCategoryField& field : kMemoryCategoryFields)
            all.emplace_back(field.key);
        all.emplace_back("slow"); // a script's step caught as slow
        return all;
    }();
    return names;
}

// How many columns the header names, if it is the current header or an older one
// (a prefix of at least kFirstFormatColumns); 0 otherwise.
size_t knownHeaderColumns(const std::string& header) {
    std::string expected;
    const auto& names = columnNames();
    for (size_t i = 0; i < names.size(); ++i) {
        expected += (i ? "," : "") + names[i];
        if (i + 1 >= kFirstFormatColumns && header == expected) return i + 1;
    }
    return 0;
}

} // namespace

std::string stepsCsvHeader() {
    std::string out;
    for (const std::string& name : columnNames())
        out += (out.empty() ? "" : ",") + name;
    return out + "\n";
}

std::string stepsCsvRow(const StepRecord& s) {
    std::ostringstream o;
    o.precision(9);
    o << s.epoch << ',' << s.step << ',' << s.global_step << ',' << s.batch_size << ','
      << s.phases.data_ms << ',' << s.phases.copy_ms << ',' << s.phases.forward_ms << ','
      << s.phases.backward_ms << ',' << s.phases.optimizer_ms << ',' << s.phases.other_ms << ','
      << s.step_ms << ',' << s.images_per_sec << ',' << s.loss << ',' << s.lr << ',' << s.correct
      << ',' << (s.skipped ? 1 : 0) << ',' << s.loss_scale << ',' << s.tensor_bytes << ','
      << s.tensor_peak_bytes << ',' << s.rss_bytes << ',' << s.device_bytes << ','
      << s.device_peak_bytes << ',' << s.wall_s << ',' << (s.profiled ? 1 : 0) << ','
      << s.page_faults << ',' << s.allreduce_ms << ',' << s.comm_wait_ms;
    for (const MemoryCategoryField& field : kMemoryCategoryFields)
        o << ',' << s.memory.*field.bytes;
    o << ',' << (s.slow ? 1 : 0) << '\n';
    return o.str();
}

namespace {

// The cells of one row as numbers; throws naming the file, line and cell.
std::vector<double> rowValues(const std::string& line, const std::filesystem::path& path,
                              int line_no) {
    std::vector<double> v;
    std::stringstream cells(line);
    std::string cell;
    try {
        while (std::getline(cells, cell, ','))
            v.push_back(std::stod(cell));
    } catch (const std::exception&) {
        throw RunFormatError(path.string() + ":" + std::to_string(line_no) + ": not a number: \"" +
                             cell + "\"");
    }
    return v;
}

// Cell `i` as an integer of type Int: a double beyond Int's range (an edited
// or damaged file's) is refused naming the cell.
template <typename Int>
Int wholeCell(const std::vector<double>& v, size_t i, const std::filesystem::path& path,
              int line_no) {
    const double x = v[i];
    if (!fitsInteger<Int>(x)) {
        std::ostringstream text;
        text << x;
        throw RunFormatError(path.string() + ":" + std::to_string(line_no) + ": column " +
                             std::to_string(i + 1) + " is out of range: " + text.str());
    }
    return Int(x);
}

StepRecord stepOf(const std::vector<double>& v, size_t columns, const std::filesystem::path& path,
                  int line_no) {
    auto i32 = [&](size_t i) { return wholeCell<int>(v, i, path, line_no); };
    auto i64 = [&](size_t i) { return wholeCell<int64_t>(v, i, path, line_no); };
    StepRecord s;
    size_t i = 0;
    s.epoch = i32(i++);
    s.step = i64(i++);
    s.global_step = i64(i++);
    s.batch_size = i32(i++);
    s.phases.data_ms = v[i++];
    s.phases.copy_ms = v[i++];
    s.phases.forward_ms = v[i++];
    s.phases.backward_ms = v[i++];
    s.phases.optimizer_ms = v[i++];
    s.phases.other_ms = v[i++];
    s.step_ms = v[i++];
    s.images_per_sec = v[i++];
    s.loss = v[i++];
    s.lr = v[i++];
    s.correct = i64(i++);
    s.skipped = v[i++] != 0;
    s.loss_scale = v[i++];
    s.tensor_bytes = i64(i++);
    s.tensor_peak_bytes = i64(i++);
    s.rss_bytes = i64(i++);
    s.device_bytes = i64(i++);
    s.device_peak_bytes = i64(i++);
    s.wall_s = v[i++];
    s.profiled = v[i++] != 0;
    s.page_faults = i < columns ? i64(i++) : -1;
    // Data-parallel columns, absent from files of earlier versions.
    s.allreduce_ms = i < columns ? v[i++] : 0;
    s.comm_wait_ms = i < columns ? v[i++] : 0;
    // Memory by category, absent from files before it was recorded: zeros.
    for (const MemoryCategoryField& field : kMemoryCategoryFields)
        s.memory.*field.bytes = i < columns ? i64(i++) : 0;
    s.slow = i < columns && v[i++] != 0;
    return s;
}

size_t headerColumns(std::string header, const std::filesystem::path& path) {
    if (!header.empty() && header.back() == '\r') header.pop_back();
    const size_t columns = knownHeaderColumns(header);
    if (columns == 0)
        throw RunFormatError(path.string() + ": unexpected header (not a Trainscope steps.csv)");
    return columns;
}

} // namespace

std::vector<StepRecord> readStepsCsv(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw RunFormatError(path.string() + ": cannot open steps file");
    std::string line;
    std::getline(in, line);
    const size_t columns = headerColumns(line, path);
    std::vector<StepRecord> steps;
    int line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        const auto v = rowValues(line, path, line_no);
        if (v.size() != columns) {
            // A run killed mid-write leaves a partial last line: stop there.
            if (in.peek() == EOF) break;
            throw RunFormatError(path.string() + ":" + std::to_string(line_no) + ": expected " +
                                 std::to_string(columns) + " columns, found " +
                                 std::to_string(v.size()));
        }
        steps.push_back(stepOf(v, columns, path, line_no));
    }
    return steps;
}

std::optional<FileStamp> fileStamp(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileStamp{int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
                     uint64_t(st.st_size)};
}

int64_t fileWriteTimeNs(const std::filesystem::path& path) {
    const std::optional<FileStamp> stamp = fileStamp(path);
    return stamp ? stamp->write_ns : -1;
}

namespace {

// Closes a descriptor on every way out, a bad_alloc of the read included.
struct ClosedAtEnd {
    int fd;
    ~ClosedAtEnd() {
        if (fd >= 0) ::close(fd);
    }
};

// The bytes of an open file from `offset` to its end.
std::string readFrom(int fd, size_t offset, size_t size) {
    std::string chunk(size > offset ? size - offset : 0, '\0');
    size_t done = 0;
    while (done < chunk.size()) {
        const ssize_t n =
            ::pread(fd, chunk.data() + done, chunk.size() - done, off_t(offset + done));
        if (n <= 0) break; // cut short meanwhile: what was read
        done += size_t(n);
    }
    chunk.resize(done);
    return chunk;
}

} // namespace

std::vector<StepRecord> StepsCsvTail::readNew() {
    std::vector<StepRecord> steps;
    // One descriptor for the checks and the read: the file renamed over
    // between them cannot mix two files.
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return steps; // not written yet
    const ClosedAtEnd closed{fd};
    struct stat st {};
    const bool stated = ::fstat(fd, &st) == 0;
    const int64_t written_ns = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    if (!stated || (not_before_ns_ > 0 && written_ns < not_before_ns_))
        return steps; // an earlier process's file: not this job's yet
    not_before_ns_ = 0;
    const bool replaced =
        offset_ > 0 && (uint64_t(st.st_dev) != device_ || uint64_t(st.st_ino) != inode_ ||
                        size_t(st.st_size) < offset_);
    if (replaced) {
        offset_ = 0;
        columns_ = 0;
        line_no_ = 0;
        repeated_through_ = last_step_;
    }
    device_ = uint64_t(st.st_dev);
    inode_ = uint64_t(st.st_ino);
    const std::string chunk = readFrom(fd, offset_, size_t(st.st_size));
    // Only whole lines: the writer may be in the middle of the next one.
    const size_t end = chunk.rfind('\n');
    if (end == std::string::npos) return steps;
    offset_ += end + 1;
    std::istringstream lines(chunk.substr(0, end + 1));
    std::string line;
    while (std::getline(lines, line)) {
        ++line_no_;
        if (columns_ == 0) {
            columns_ = headerColumns(line, path_);
            continue;
        }
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        // A malformed row is skipped and reported; the rows around it count.
        try {
            const auto v = rowValues(line, path_, line_no_);
            if (v.size() != columns_)
                throw RunFormatError(path_.string() + ":" + std::to_string(line_no_) +
                                     ": expected " + std::to_string(columns_) + " columns, found " +
                                     std::to_string(v.size()));
            const StepRecord step = stepOf(v, columns_, path_, line_no_);
            if (repeated_through_ && step.global_step <= *repeated_through_) continue;
            last_step_ = std::max(last_step_.value_or(step.global_step), step.global_step);
            steps.push_back(step);
        } catch (const RunFormatError& e) {
            errors_.emplace_back(e.what());
        }
    }
    return steps;
}

} // namespace ts
