#include "trace/TraceSource.h"

#include <algorithm>
#include <fstream>
#include <string>

#include <zlib.h>

#include "trace/TraceReadError.h"

namespace ts {
namespace {

class TextSource : public TraceSource {
public:
    explicit TextSource(const std::string& text) : text_(text) {}
    std::string_view next(size_t max) override {
        const std::string_view chunk = std::string_view(text_).substr(offset_, max);
        offset_ += chunk.size();
        return chunk;
    }
    uint64_t consumed() const override { return offset_; }
    uint64_t total() const override { return text_.size(); }

private:
    const std::string& text_;
    size_t offset_ = 0;
};

class PlainFileSource : public TraceSource {
public:
    PlainFileSource(const std::filesystem::path& path, uint64_t size)
        : path_(path), in_(path, std::ios::binary), size_(size) {
        if (!in_) throw TraceReadError(path.string() + ": cannot open the file for reading.");
    }
    std::string_view next(size_t max) override {
        buffer_.resize(max);
        in_.read(buffer_.data(), static_cast<std::streamsize>(max));
        if (in_.bad()) throw TraceReadError(path_.string() + ": reading the file failed.");
        const auto n = static_cast<size_t>(in_.gcount());
        consumed_ += n;
        return {buffer_.data(), n};
    }
    uint64_t consumed() const override { return consumed_; }
    uint64_t total() const override { return size_; }

private:
    std::filesystem::path path_;
    std::ifstream in_;
    uint64_t size_;
    uint64_t consumed_ = 0;
    std::string buffer_;
};

class GzipFileSource : public TraceSource {
public:
    GzipFileSource(const std::filesystem::path& path, uint64_t size)
        : path_(path), file_(gzopen(path.string().c_str(), "rb")), size_(size) {
        if (!file_) throw TraceReadError(path.string() + ": cannot open the file for reading.");
    }
    ~GzipFileSource() override { gzclose(file_); }
    GzipFileSource(const GzipFileSource&) = delete;
    GzipFileSource& operator=(const GzipFileSource&) = delete;

    std::string_view next(size_t max) override {
        buffer_.resize(max);
        const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(max));
        int status = Z_OK;
        gzerror(file_, &status);
        if (n < 0 || (status != Z_OK && status != Z_STREAM_END))
            throw TraceReadError(path_.string() + ": not a valid gzip file (truncated?).");
        return {buffer_.data(), static_cast<size_t>(n)};
    }
    // The compressed bytes inflated so far (zlib's unused read-ahead not counted).
    uint64_t consumed() const override {
        return std::min<uint64_t>(static_cast<uint64_t>(gzoffset(file_)), size_);
    }
    uint64_t total() const override { return size_; }

private:
    std::filesystem::path path_;
    gzFile file_;
    uint64_t size_;
    std::string buffer_;
};

bool isGzip(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char magic[2] = {0, 0};
    in.read(reinterpret_cast<char*>(magic), 2);
    return in && magic[0] == 0x1f && magic[1] == 0x8b;
}

} // namespace

std::unique_ptr<TraceSource> openTraceFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw TraceReadError(path.string() + ": no such trace file.");
    const uint64_t bytes = std::filesystem::file_size(path, ec);
    if (ec) throw TraceReadError(path.string() + ": cannot read the file size.");
    if (isGzip(path)) return std::make_unique<GzipFileSource>(path, bytes);
    return std::make_unique<PlainFileSource>(path, bytes);
}

std::unique_ptr<TraceSource> traceTextSource(const std::string& text) {
    return std::make_unique<TextSource>(text);
}

} // namespace ts
