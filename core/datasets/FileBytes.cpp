#include "datasets/FileBytes.h"

#include <zlib.h>

#include <algorithm>
#include <memory>

#include "datasets/Dataset.h"

namespace ts {

std::string quoted(const std::filesystem::path& path) {
    return "'" + path.string() + "'";
}

namespace {

struct GzCloser {
    void operator()(gzFile_s* file) const { gzclose(file); }
};

// The decompressed size of plain files is their size; for gzip files it is
// unknown up front, so the buffer grows geometrically.
size_t initialCapacity(const std::filesystem::path& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? size_t(1) << 20 : size_t(size) + 1;
}

// zlib prefixes its messages with the file name, which ours already names.
std::string withoutPathPrefix(const char* message, const std::filesystem::path& path) {
    std::string text = message ? message : "unknown zlib error";
    const std::string prefix = path.string() + ": ";
    if (text.compare(0, prefix.size(), prefix) == 0) text.erase(0, prefix.size());
    return text;
}

} // namespace

FileBytes readFileBytes(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw DataError("Data file " + quoted(path) + " does not exist or is not a regular file.");
    std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
    if (!file) throw DataError("Data file " + quoted(path) + " could not be opened for reading.");
    gzbuffer(file.get(), 1 << 20);

    FileBytes result;
    result.bytes.resize(initialCapacity(path));
    size_t filled = 0;
    while (true) {
        if (filled == result.bytes.size()) result.bytes.resize(result.bytes.size() * 2);
        const size_t room = std::min<size_t>(result.bytes.size() - filled, 1u << 30);
        const int got = gzread(file.get(), result.bytes.data() + filled, unsigned(room));
        if (got > 0) {
            filled += size_t(got);
            continue;
        }
        int code = Z_OK;
        const char* message = gzerror(file.get(), &code);
        if (code == Z_BUF_ERROR) {
            result.truncation_note = "its gzip stream ends early (the compressed file is cut off)";
        } else if (got < 0 || code != Z_OK) {
            throw DataError("Data file " + quoted(path) + " could not be decompressed: " +
                            withoutPathPrefix(message, path) + ".");
        }
        break;
    }
    result.bytes.resize(filled); // no shrink_to_fit: it would copy the whole file
    return result;
}

} // namespace ts
