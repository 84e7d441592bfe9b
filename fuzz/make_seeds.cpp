// Writes the seeds that only Trainscope's own writers can make, so that they
// match this build's formats: trace indexes (.tsidx) and Overview cache
// files (.tsov) of the sample traces, and run directories (run.json + steps.csv + ops.csv, joined
// by NUL bytes as fuzz_run_dir cuts them). Usage: fuzz_make_seeds <tests/data> <fuzz/corpus>. Run
// again when a format changes (scripts/fuzz.sh --seeds).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "analysis/OverviewCacheFormat.h"
#include "analysis/RankSummaryFile.h"
#include "report/RunDirectory.h"
#include "trace/ChromeTraceReader.h"
#include "trace/TraceIndex.h"

namespace fs = std::filesystem;
using namespace ts;

namespace {

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeFile(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

// A run of two epochs of three steps, recorded as the trainer records one,
// with the operator table of `trace` as its profile.
std::string runSeed(const Trace& trace, const fs::path& scratch) {
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    const OpTable ops = computeOpStats(trace);
    {
        RunRecorder recorder(scratch);
        RunInfo info;
        info.train_samples = 96;
        info.steps_per_epoch = 3;
        recorder.onRunStarted(info);
        for (int epoch = 0; epoch < 2; ++epoch) {
            for (int step = 0; step < 3; ++step) {
                StepRecord s;
                s.epoch = epoch, s.step = step, s.global_step = epoch * 3 + step;
                s.batch_size = 32, s.step_ms = 10.5 + step, s.loss = 2.0 - 0.1 * step;
                s.profiled = epoch == 1;
                recorder.onStep(s);
            }
            EpochRecord e;
            e.epoch = epoch, e.steps = 3, e.epoch_time_s = 0.03, e.train_loss = 1.9;
            recorder.onEpoch(e);
        }
        RunSummary summary;
        summary.status = RunStatus::Completed;
        summary.steps_completed = 6, summary.epochs_completed = 2;
        recorder.onRunFinished(summary);
    }
    nlohmann::json run = nlohmann::json::parse(readFile(scratch / run_files::kRunJson));
    run["profile"] = {{"rows", opTableToJson(ops, 5)}};
    return run.dump(1) + '\0' + readFile(scratch / run_files::kStepsCsv) + '\0' +
           formatOpTableCsv(ops, 5);
}

// The Overview cache file of `trace`, as the GUI keeps it.
std::string overviewSeed(const Trace& trace, const TraceKey& key) {
    const GpuTraceAnalysis analysis = analyzeGpuTrace(trace, {}, GpuAnalysisScope::Overview);
    TimelineTracks tracks;
    addTimelineLaunches(tracks, trace, &analysis.events, &analysis.links);
    OverviewCacheStamp stamp;
    stamp.key = key;
    stamp.events = trace.events.size();
    stamp.build = analysisSourceHash();
    return writeOverviewCache(analysis, tracks.launches, tracks.steps, stamp);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: fuzz_make_seeds <tests/data> <fuzz/corpus>\n";
        return 2;
    }
    const fs::path data = argv[1], corpus = argv[2];
    const TraceKey key{1234, 5678, 1, 2, {3, 4}};
    int written = 0;
    for (const char* name :
         {"kineto_call_stacks.json", "memory_without_totals.json", "module_view_device.json",
          "timeline_launches.json", "tb_plugin/test_memory_curve.json",
          "tb_plugin/test_external_id.json"}) {
        const Trace trace = readChromeTraceFile(data / name);
        const std::string stem = fs::path(name).stem().string();
        writeFile(corpus / "trace_index" / (stem + ".tsidx"), writeTraceIndex(trace, key));
        writeFile(corpus / "overview_cache" / (stem + ".tsov"), overviewSeed(trace, key));
        writeFile(corpus / "run_dir" / (stem + ".run"),
                  runSeed(trace, fs::temp_directory_path() / "trainscope-fuzz-seeds"));
        written += 3;
    }
    for (const char* name :
         {"tb_plugin/test_distributed_nccl_1.json", "tb_plugin/test_distributed_gloo_cpu_0.json",
          "distributed_hta/rank-0.json.gz"}) {
        RankTrace rank;
        rank.path = data / name;
        rank.trace = readChromeTraceFile(rank.path);
        const std::string stem = fs::path(name).stem().string();
        writeFile(corpus / "rank_summary" / (stem + ".tsrank"),
                  writeRankSummary(summarizeRank(rank, {}), RankSummaryStamp{}));
        ++written;
    }
    fs::remove_all(fs::temp_directory_path() / "trainscope-fuzz-seeds");
    std::cout << "fuzz_make_seeds: " << written << " seeds written under " << corpus << "\n";
    return 0;
}
