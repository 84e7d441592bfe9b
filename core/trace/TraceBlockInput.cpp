#include "trace/TraceBlockInput.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/TraceReadError.h"

namespace ts {

namespace {

class TextBlockInput : public TraceBlockInput {
public:
    explicit TextBlockInput(const std::string& text) : text_(text) {}
    size_t read(char* out, size_t max) override {
        const size_t n = std::min(max, text_.size() - offset_);
        std::memcpy(out, text_.data() + offset_, n);
        offset_ += n;
        return n;
    }
    uint64_t consumed() const override { return offset_; }
    uint64_t total() const override { return text_.size(); }

private:
    const std::string& text_;
    size_t offset_ = 0;
};

// Owns a file descriptor.
class File {
public:
    explicit File(const std::filesystem::path& path) : path_(path) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) throw TraceReadError(path.string() + ": cannot open the file for reading.");
        struct stat st {};
        if (::fstat(fd_, &st) != 0) {
            ::close(fd_);
            throw TraceReadError(path.string() + ": cannot read the file size.");
        }
        size_ = static_cast<uint64_t>(st.st_size);
    }
    ~File() { ::close(fd_); }
    File(const File&) = delete;
    File& operator=(const File&) = delete;

    // Up to `max` bytes at `offset`; fewer only at the end of the file.
    size_t readAt(char* out, size_t max, uint64_t offset) const {
        size_t done = 0;
        while (done < max) {
            const ssize_t n =
                ::pread(fd_, out + done, max - done, static_cast<off_t>(offset + done));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw TraceReadError(path_.string() + ": reading the file failed.");
            if (n == 0) break;
            done += static_cast<size_t>(n);
        }
        return done;
    }
    uint64_t size() const { return size_; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

class PlainBlockInput : public TraceBlockInput {
public:
    explicit PlainBlockInput(const std::filesystem::path& path) : file_(path) {}
    size_t read(char* out, size_t max) override {
        const size_t n = file_.readAt(out, max, offset_);
        offset_ += n;
        return n;
    }
    uint64_t consumed() const override { return offset_; }
    uint64_t total() const override { return file_.size(); }

private:
    File file_;
    uint64_t offset_ = 0;
};

// zlib's inflate over compressed reads. Members follow one another (as
// gzread reads them); bytes after a member that do not start another are
// ignored, as gzread ignores them.
class GzipBlockInput : public TraceBlockInput {
public:
    explicit GzipBlockInput(const std::filesystem::path& path) : file_(path), in_(kInBytes) {
        if (inflateInit2(&z_, 15 + 16) != Z_OK)
            throw TraceReadError(path.string() + ": cannot start decompressing the file.");
    }
    ~GzipBlockInput() override { inflateEnd(&z_); }
    GzipBlockInput(const GzipBlockInput&) = delete;
    GzipBlockInput& operator=(const GzipBlockInput&) = delete;

    size_t read(char* out, size_t max) override {
        size_t done = 0;
        while (done < max && !finished_) {
            if (z_.avail_in == 0 && !refill()) {
                // The file ended inside a member.
                throw TraceReadError(file_.path().string() +
                                     ": not a valid gzip file (truncated?).");
            }
            z_.next_out = reinterpret_cast<Bytef*>(out + done);
            const size_t room = std::min<size_t>(max - done, 1u << 30);
            z_.avail_out = static_cast<uInt>(room);
            const int status = inflate(&z_, Z_NO_FLUSH);
            done += room - z_.avail_out;
            if (status == Z_STREAM_END) {
                nextMember();
            } else if (status != Z_OK && status != Z_BUF_ERROR) {
                throw TraceReadError(file_.path().string() +
                                     ": not a valid gzip file (truncated?).");
            }
        }
        return done;
    }
    // The compressed bytes inflated so far.
    uint64_t consumed() const override { return offset_ - z_.avail_in; }
    uint64_t total() const override { return file_.size(); }
    bool compressed() const override { return true; }

private:
    static constexpr size_t kInBytes = size_t(1) << 18;

    bool refill() {
        const size_t n = file_.readAt(reinterpret_cast<char*>(in_.data()), in_.size(), offset_);
        offset_ += n;
        z_.next_in = in_.data();
        z_.avail_in = static_cast<uInt>(n);
        return n > 0;
    }
    void nextMember() {
        if (z_.avail_in == 0 && !refill()) return void(finished_ = true);
        if (z_.avail_in < 2 && offset_ < file_.size()) {
            // The magic straddles two reads: keep the byte, read on.
            const Bytef kept = *z_.next_in;
            const size_t n =
                file_.readAt(reinterpret_cast<char*>(in_.data()) + 1, in_.size() - 1, offset_);
            offset_ += n;
            in_[0] = kept;
            z_.next_in = in_.data();
            z_.avail_in = static_cast<uInt>(n + 1);
        }
        if (z_.avail_in < 2 || z_.next_in[0] != 0x1f || z_.next_in[1] != 0x8b)
            return void(finished_ = true);
        inflateReset(&z_);
    }

    File file_;
    std::vector<Bytef> in_;
    z_stream z_{};
    uint64_t offset_ = 0;
    bool finished_ = false;
};

bool isGzip(const std::filesystem::path& path) {
    const File file(path);
    unsigned char magic[2] = {0, 0};
    return file.readAt(reinterpret_cast<char*>(magic), 2, 0) == 2 && magic[0] == 0x1f &&
           magic[1] == 0x8b;
}

} // namespace

std::unique_ptr<TraceBlockInput> openTraceBlockInput(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw TraceReadError(path.string() + ": no such trace file.");
    if (isGzip(path)) return std::make_unique<GzipBlockInput>(path);
    return std::make_unique<PlainBlockInput>(path);
}

std::unique_ptr<TraceBlockInput> textBlockInput(const std::string& text) {
    return std::make_unique<TextBlockInput>(text);
}

} // namespace ts
