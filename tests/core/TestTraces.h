#pragma once
// Traces the tests share: every trace of tests/data, and a GPU trace large
// enough for the trace cache (which keeps only traces of 16 MB or more).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <zlib.h>

#include "trace/ChromeTraceReader.h"

namespace ts::testing {

// Each file of `data_dir` (recursively) named *.json or *.json.gz that reads
// as a trace; files that do not (configs, refused fuzz regressions) are
// skipped.
inline void forEachTestTrace(const std::filesystem::path& data_dir,
                             const std::function<void(const std::string&, const Trace&)>& visit) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir)) {
        const std::string name = entry.path().filename().string();
        auto ends = [&](const std::string& suffix) {
            return name.size() >= suffix.size() &&
                   name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
        };
        if (!entry.is_regular_file() || !(ends(".json") || ends(".json.gz"))) continue;
        Trace trace;
        try {
            trace = readChromeTraceFile(entry.path());
        } catch (const std::exception&) {
            continue;
        }
        visit(entry.path().string(), trace);
    }
}

// The H100 ResNet-50 sample of `data_dir` (15 MB of JSON) padded with
// trailing spaces past the trace cache's 16 MB threshold, written to
// `out_dir`/resnet50_padded.json; "" when the sample cannot be read.
inline std::filesystem::path writePaddedH100Trace(const std::filesystem::path& data_dir,
                                                  const std::filesystem::path& out_dir) {
    const std::string gz = (data_dir / "h100" / "resnet50_bs64_bf16.pt.trace.json.gz").string();
    gzFile in = gzopen(gz.c_str(), "rb");
    if (!in) return {};
    std::string text;
    char buffer[1 << 16];
    for (int n; (n = gzread(in, buffer, sizeof buffer)) > 0;)
        text.append(buffer, size_t(n));
    gzclose(in);
    text.append((size_t(17) << 20) - std::min(text.size(), size_t(17) << 20), ' ');
    const std::filesystem::path path = out_dir / "resnet50_padded.json";
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace ts::testing
