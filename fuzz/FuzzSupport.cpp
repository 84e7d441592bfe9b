#include "FuzzSupport.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include <unistd.h>

namespace ts::fuzz {

namespace fs = std::filesystem;

std::vector<std::string> splitInput(const uint8_t* data, size_t size, char separator,
                                    size_t max_parts) {
    std::vector<std::string> parts(1);
    for (size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == separator && parts.size() < max_parts)
            parts.emplace_back();
        else
            parts.back().push_back(c);
    }
    return parts;
}

ScratchDir::ScratchDir() {
    std::error_code ec;
    const fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    path_ = base / ("trainscope-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

const fs::path& ScratchDir::fresh() {
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(path_, ec))
        fs::remove_all(entry.path(), ec);
    return path_;
}

void ScratchDir::write(const std::string& name, const std::string& bytes) const {
    std::ofstream out(path_ / name, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) propertyBroken("cannot write the scratch file " + (path_ / name).string());
}

void propertyBroken(const std::string& what) {
    std::fprintf(stderr, "fuzz: property broken: %s\n", what.c_str());
    std::abort();
}

} // namespace ts::fuzz
