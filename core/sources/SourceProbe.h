#pragma once
// What the source registry (sources/SourceRegistry.h) looks at to tell one
// kind of document from another: whether the path is a file or a folder, a
// file's first bytes (decompressed when it is gzip, which is told by its
// magic bytes, not by its name) and a folder's entries. Sources recognise
// content; a name alone only breaks a tie.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ts::sources {

struct SourceProbe {
    std::filesystem::path path; // as given
    bool exists = false;
    bool is_dir = false;
    bool gzip = false;
    // The first kHeadBytes of the file's content (after gunzip); empty for
    // a folder or a file that cannot be read.
    std::string head;
    std::string read_error;           // why `head` is empty for a file that exists
    std::vector<std::string> entries; // a folder's names, sorted (not recursive)

    // A snapshot's keys and a Kineto trace's "traceEvents" come after its
    // device properties, a few hundred bytes per GPU.
    static constexpr size_t kHeadBytes = 64 * 1024;

    // The file name without its folder ("worker0.pt.trace.json.gz").
    std::string fileName() const { return path.filename().string(); }
    bool hasEntry(std::string_view name) const;
    // The head without leading white space and a UTF-8 byte order mark.
    std::string_view text() const;
};

// Never throws: what cannot be read is an empty head with `read_error` set.
SourceProbe probeSource(const std::filesystem::path& path);

} // namespace ts::sources
