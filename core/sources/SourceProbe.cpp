#include "sources/SourceProbe.h"

#include <algorithm>
#include <cctype>

#include "trace/TraceSource.h"

namespace ts::sources {

bool SourceProbe::hasEntry(std::string_view name) const {
    return std::binary_search(entries.begin(), entries.end(), name);
}

std::string_view SourceProbe::text() const {
    std::string_view t = head;
    if (t.substr(0, 3) == "\xEF\xBB\xBF") t.remove_prefix(3);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
        t.remove_prefix(1);
    return t;
}

namespace {

bool startsGzip(const std::filesystem::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return false;
    unsigned char magic[2] = {0, 0};
    const size_t got = std::fread(magic, 1, 2, file);
    std::fclose(file);
    return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

// The trace reader's byte source gunzips what needs it; a corrupt stream
// ends the head where it breaks.
void readHead(SourceProbe& probe) {
    try {
        probe.gzip = startsGzip(probe.path);
        const std::unique_ptr<TraceSource> source = openTraceFile(probe.path);
        while (probe.head.size() < SourceProbe::kHeadBytes) {
            const std::string_view chunk =
                source->next(SourceProbe::kHeadBytes - probe.head.size());
            if (chunk.empty()) break;
            probe.head.append(chunk);
        }
    } catch (const std::exception& error) {
        if (probe.head.empty()) probe.read_error = error.what();
    }
}

void listEntries(SourceProbe& probe) {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(probe.path, ignored))
        probe.entries.push_back(entry.path().filename().string());
    std::sort(probe.entries.begin(), probe.entries.end());
}

} // namespace

SourceProbe probeSource(const std::filesystem::path& path) {
    SourceProbe probe;
    probe.path = path;
    std::error_code ignored;
    const std::filesystem::file_status status = std::filesystem::status(path, ignored);
    probe.exists = std::filesystem::exists(status);
    probe.is_dir = std::filesystem::is_directory(status);
    if (probe.is_dir)
        listEntries(probe);
    else if (probe.exists)
        readHead(probe);
    return probe;
}

} // namespace ts::sources
