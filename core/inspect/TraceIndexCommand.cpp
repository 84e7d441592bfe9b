#include "inspect/TraceIndexCommand.h"

#include <filesystem>

#include "analysis/RankSummaries.h"
#include "inspect/ExitCodes.h"
#include "inspect/ReadProgressLine.h"
#include "trace/RankFolder.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

// Every trace the inputs name: one file alone is a rank too.
std::vector<RankFile> rankFiles(const std::vector<std::string>& inputs) {
    std::error_code ec;
    if (inputs.size() == 1 && fs::is_regular_file(inputs.front(), ec)) {
        const fs::path path = inputs.front();
        const std::optional<RankFileName> name = parseProfilerFileName(path.filename().string());
        return {RankFile{name ? name->worker : path.stem().string(), name ? name->span : "", path}};
    }
    std::vector<RankFile> out;
    for (RankSpan& span : findRankSpans({inputs.begin(), inputs.end()}))
        for (RankFile& f : span.files)
            if (fs::exists(f.path, ec)) out.push_back(std::move(f)); // not summaries alone
    return out;
}

std::string describe(const RankTraceSummary& s) {
    std::string line = "rank " + std::to_string(s.rank) + ", " + std::to_string(s.steps.size()) +
                       " steps, " + std::to_string(s.collectives.size()) + " collectives";
    if (!s.problem.empty()) line += " (" + s.problem + ")";
    return line;
}

} // namespace

int runTraceIndex(const TraceIndexOptions& options, std::ostream& out, std::ostream& err) {
    std::vector<RankFile> files;
    try {
        files = rankFiles(options.inputs);
    } catch (const std::exception& e) {
        err << "trace-index: " << e.what() << "\n";
        return exit_code::kBadInput;
    }
    GpuAnalysisOptions analysis;
    analysis.plugin_compatible = options.plugin_compatible;
    std::vector<std::string> lines(files.size()), failures(files.size());
    const ReadProgress progress = rankFilesProgressLine(
        options.inputs.size() == 1 ? options.inputs.front() : "the traces", err, options.progress);
    forEachRankFile(
        files.size(),
        [&](size_t i) {
            try {
                const RankTraceSummary s = writeSummaryBeside(files[i], i, analysis);
                lines[i] = files[i].path.string() + ": " + describe(s) + " -> " +
                           summaryBeside(files[i].path).filename().string();
            } catch (const std::exception& e) {
                failures[i] = e.what();
            }
        },
        progress);
    size_t failed = 0;
    for (size_t i = 0; i < files.size(); ++i) {
        if (!lines[i].empty()) out << lines[i] << "\n";
        if (failures[i].empty()) continue;
        err << "trace-index: " << failures[i] << "\n";
        ++failed;
    }
    out << files.size() - failed << " of " << files.size() << " summaries written\n";
    return failed ? exit_code::kBadInput : exit_code::kOk;
}

} // namespace ts
