#pragma once
// Helpers for the data tests: a self-deleting temp folder and writers for
// small IDX (gzip or plain) and CIFAR binary files.
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace ts::data_test {

class TempFolder {
public:
    TempFolder() {
        static std::atomic<int> counter{0};
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path_ = std::filesystem::temp_directory_path() /
                ("trainscope-data-" + std::to_string(::getpid()) + "-" + std::to_string(stamp) +
                 "-" + std::to_string(counter++));
        std::filesystem::create_directories(path_);
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes,
                       bool gzip = false) {
    if (gzip) {
        gzFile file = gzopen(path.c_str(), "wb");
        if (!file) throw std::runtime_error("cannot write " + path.string());
        if (!bytes.empty()) gzwrite(file, bytes.data(), unsigned(bytes.size()));
        gzclose(file);
        return;
    }
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline std::vector<uint8_t> readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void appendBigEndian(std::vector<uint8_t>& out, uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(uint8_t(value >> shift));
}

// A recognisable pixel value for image i at (y, x).
inline uint8_t testPixel(int64_t i, int64_t y, int64_t x) {
    return uint8_t(1 + (i * 37 + y * 11 + x * 3) % 250);
}

inline std::vector<uint8_t> idxImages(uint32_t count, uint32_t rows, uint32_t cols,
                                      uint32_t magic = 0x00000803) {
    std::vector<uint8_t> bytes;
    for (uint32_t v : {magic, count, rows, cols})
        appendBigEndian(bytes, v);
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t y = 0; y < rows; ++y)
            for (uint32_t x = 0; x < cols; ++x)
                bytes.push_back(testPixel(i, y, x));
    return bytes;
}

inline std::vector<uint8_t> idxLabels(uint32_t count, int classes = 10) {
    std::vector<uint8_t> bytes;
    for (uint32_t v : {0x00000801u, count})
        appendBigEndian(bytes, v);
    for (uint32_t i = 0; i < count; ++i)
        bytes.push_back(uint8_t(i % uint32_t(classes)));
    return bytes;
}

// Writes train- and t10k- image/label files into dir.
inline void writeFashionMnist(const std::filesystem::path& dir, uint32_t train, uint32_t test,
                              bool gzip) {
    const std::string ext = gzip ? ".gz" : "";
    writeBytes(dir / ("train-images-idx3-ubyte" + ext), idxImages(train, 28, 28), gzip);
    writeBytes(dir / ("train-labels-idx1-ubyte" + ext), idxLabels(train), gzip);
    writeBytes(dir / ("t10k-images-idx3-ubyte" + ext), idxImages(test, 28, 28), gzip);
    writeBytes(dir / ("t10k-labels-idx1-ubyte" + ext), idxLabels(test), gzip);
}

// CIFAR records: `label_bytes` label bytes (label(i, k)) then 3072 CHW pixels.
template <typename LabelOf>
std::vector<uint8_t> cifarRecords(int64_t count, int label_bytes, int64_t first_image,
                                  LabelOf label) {
    std::vector<uint8_t> bytes;
    for (int64_t i = 0; i < count; ++i) {
        for (int k = 0; k < label_bytes; ++k)
            bytes.push_back(uint8_t(label(first_image + i, k)));
        for (int64_t c = 0; c < 3; ++c)
            for (int64_t y = 0; y < 32; ++y)
                for (int64_t x = 0; x < 32; ++x)
                    bytes.push_back(testPixel(first_image + i, c * 32 + y, x));
    }
    return bytes;
}

} // namespace ts::data_test
