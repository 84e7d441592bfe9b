// A distributed run's folder of per-rank traces (trace/RankFolder.h) and the
// Distributed view computed from it (analysis/DistributedView.h). Input: two
// traces and a file name, cut at NUL bytes; the traces are written as
// rank-0.json and rank-1.json, the name is parsed as a profiler file name and
// the third part also as a distributedInfo object. Bad traces are a
// TraceReadError, ranks that cannot form a view an std::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "FuzzSupport.h"
#include "analysis/DistributedView.h"
#include "trace/TraceReadError.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static ts::fuzz::ScratchDir scratch;
    const std::vector<std::string> parts = ts::fuzz::splitInput(data, size, '\0', 3);
    if (parts.size() == 3) {
        if (const auto name = ts::parseProfilerFileName(parts[2]))
            (void)ts::rankFromWorkerName(name->worker);
        (void)ts::rankFromDistributedInfo(parts[2]);
    }
    const std::filesystem::path& dir = scratch.fresh();
    for (size_t i = 0; i < parts.size() && i < 2; ++i)
        scratch.write("rank-" + std::to_string(i) + ".json", parts[i]);
    try {
        for (const ts::RankSpan& span : ts::findRankSpans({dir})) {
            const std::vector<ts::RankTrace> ranks = ts::readRankSpan(span);
            for (bool plugin : {false, true}) {
                ts::GpuAnalysisOptions options;
                options.plugin_compatible = plugin;
                try {
                    (void)ts::computeDistributedView(ranks, options);
                } catch (const std::invalid_argument&) {
                }
            }
        }
    } catch (const ts::TraceReadError&) {
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
