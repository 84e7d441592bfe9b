#include "snapshot/SnapshotReader.h"

#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_map>

#include "snapshot/SnapshotPickle.h"

namespace ts {
namespace {

class FileSource final : public PickleSource {
public:
    FileSource(const std::string& path, const std::function<void(size_t, size_t)>& progress)
        : progress_(progress) {
        file_ = std::fopen(path.c_str(), "rb");
        if (!file_) throw SnapshotError(path + ": cannot open it: " + std::strerror(errno));
        std::fseek(file_, 0, SEEK_END);
        size_ = size_t(std::ftell(file_));
        std::fseek(file_, 0, SEEK_SET);
        buffer_.resize(kBlock);
    }
    ~FileSource() override { std::fclose(file_); }
    size_t size() const override { return size_; }

protected:
    size_t fill(uint8_t* dst, size_t max) override {
        const size_t n = std::fread(dst, 1, max, file_);
        read_ += n;
        if (progress_ && (read_ - reported_ >= (size_t(64) << 20) || n == 0)) {
            progress_(read_, size_);
            reported_ = read_;
        }
        return n;
    }

private:
    static constexpr size_t kBlock = size_t(1) << 20;
    std::FILE* file_ = nullptr;
    size_t size_ = 0, read_ = 0, reported_ = 0;
    const std::function<void(size_t, size_t)>& progress_;
};

class StringSource final : public PickleSource {
public:
    explicit StringSource(const std::string& bytes) : bytes_(bytes) {}
    size_t size() const override { return bytes_.size(); }

protected:
    size_t fill(uint8_t* dst, size_t max) override {
        const size_t n = std::min(max, bytes_.size() - at_);
        std::memcpy(dst, bytes_.data() + at_, n);
        at_ += n;
        return n;
    }

private:
    const std::string& bytes_;
    size_t at_ = 0;
};

MemorySnapshot run(PickleSource& source, const std::string& origin) {
    try {
        return readSnapshotPickle(source);
    } catch (const SnapshotPickleError& e) {
        throw SnapshotError(origin + ": " + e.what());
    }
}

} // namespace

MemorySnapshot readMemorySnapshot(const std::string& path,
                                  const std::function<void(size_t, size_t)>& progress) {
    FileSource source(path, progress);
    return run(source, path);
}

MemorySnapshot parseMemorySnapshot(const std::string& bytes, const std::string& origin) {
    StringSource source(bytes);
    return run(source, origin);
}

} // namespace ts
