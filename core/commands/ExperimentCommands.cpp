#include "commands/ExperimentCommands.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <mutex>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "analysis/NcuCsv.h"
#include "analysis/Roofline.h"
#include "commands/Cancellation.h"
#include "commands/Commands.h"
#include "commands/Guarded.h"
#include "commands/JobPointRunner.h"
#include "commands/ProgressPrinter.h"
#include "config/ConfigError.h"
#include "datasets/Dataset.h"
#include "env/Devices.h"
#include "experiments/LadderReport.h"
#include "experiments/SweepReport.h"
#include "experiments/SweepScaling.h"
#include "models/Model.h"
#include "report/ChartRenderer.h"
#include "report/CompareInputs.h"
#include "report/CompareNoise.h"
#include "report/CompareRuns.h"
#include "report/MarkdownTable.h"
#include "report/RooflineReport.h"
#include "report/RunDirectory.h"
#include "runners/LadderContext.h"
#include "runners/PeakBenchmark.h"
#include "runners/PruneStudyRun.h"
#include "runners/TrainerPointRunner.h"
#include "util/AtomicFile.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

// The directory a command writes into, and whether the command made it.
struct OutputDir {
    fs::path path;
    bool made = false;
};

OutputDir outputDir(const std::string& given, const std::string& name, const char* suffix) {
    if (given.empty()) return {makeRunDirectory("runs", name + "-" + suffix), true};
    std::error_code error;
    const bool existed = fs::exists(given, error);
    fs::create_directories(given, error);
    if (error || !fs::is_directory(given))
        throw RunFormatError("--out " + given + ": cannot create the directory (" +
                             (error ? error.message() : "a file has that name") + ")");
    return {given, !existed};
}

// A command refused after it made its directory (options its runner checks,
// data that fails to load) leaves no empty directory behind.
class RemoveIfRefused {
public:
    explicit RemoveIfRefused(const OutputDir& dir)
        : dir_(dir), exceptions_(std::uncaught_exceptions()) {}
    ~RemoveIfRefused() {
        if (!dir_.made || std::uncaught_exceptions() == exceptions_) return;
        std::error_code ignored;
        fs::remove(dir_.path, ignored); // only when still empty
    }
    RemoveIfRefused(const RemoveIfRefused&) = delete;
    RemoveIfRefused& operator=(const RemoveIfRefused&) = delete;

private:
    OutputDir dir_;
    int exceptions_;
};

// "ok, 25.6 images/s, 426.0 MiB" or "oom (CUDA out of memory ...)".
std::string resultSummary(const PointResult& r) {
    std::string line = toString(r.outcome);
    if (r.outcome == PointOutcome::Completed)
        line += ", " + fixed(r.summary.median_images_per_sec, 1) + " images/s, " +
                mib(r.memory_bytes) + " MiB";
    if (!r.message.empty()) line += " (" + r.message + ")";
    return line;
}

// ", a.png, b.png" for the "wrote ..." lines where charts are drawn; where
// not, nothing, and the note that says why (once per process: a sweep or a
// ladder rewrites its report after every point).
std::string chartFiles(std::ostream& out, std::initializer_list<const char*> files) {
    if (!chartRenderer()) {
        static std::once_flag noted;
        std::call_once(noted,
                       [&out] { out << "note: no charts written: " << kChartsNeedQt << "\n"; });
        return "";
    }
    std::string text;
    for (const char* file : files)
        text += std::string(", ") + file;
    return text;
}

SweepSpec sweepSpec(const SweepOptions& o) {
    SweepSpec spec;
    spec.base = resolveConfig(o.source);
    spec.axes.push_back({o.key, parseSweepValues(o.values, "--values")});
    if (!o.key2.empty())
        spec.axes.push_back({o.key2, parseSweepValues(o.values2, "--values2")});
    else if (!o.values2.empty())
        throw ConfigError("--values2 needs --key2");
    spec.steps = o.steps;
    spec.warmup = o.warmup;
    spec.validate = o.validate;
    if (!(o.memory_margin > 0 && o.memory_margin <= 1))
        throw ConfigError("--memory-margin must be in (0, 1]");
    spec.memory_margin = o.memory_margin;
    spec.repeat = o.repeat;
    spec.budget_s = o.budget_min * 60;
    spec.confidence = o.confidence;
    return spec;
}

} // namespace

int sweepCommand(const SweepOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        const SweepSpec spec = sweepSpec(o);
        const auto points =
            expandSweep(spec, precisionSupportProblem); // bad keys and values fail before any run
        const OutputDir output = outputDir(o.out_dir, spec.base.name, "sweep");
        const RemoveIfRefused remove_if_refused(output);
        const fs::path& dir = output.path;
        out << "sweep of " << spec.base.name << ": " << points.size() << " points, " << spec.warmup
            << " warm-up + " << spec.steps << " measured steps each, " << spec.repeat
            << (spec.repeat == 1 ? " round" : " interleaved rounds") << " -> " << dir.string()
            << "\n";
        ProgressPrinter printer(err, o.progress && ::isatty(STDERR_FILENO));
        TrainerPointRunner single(o.progress ? &printer : nullptr);
        JobPointRunner runner(single, err); // points of several processes run as jobs
        CancelRegistration cancel([&single] { single.requestCancel(); });
        const auto result =
            runSweep(spec, runner, dir, [&](const SweepRow& row, const auto& so_far) {
                if (so_far.rounds <= 1)
                    out << "[" << row.point.index + 1 << "/" << points.size() << "] "
                        << row.point.label() << ": " << resultSummary(row.result) << "\n";
                else
                    out << "round " << so_far.rounds << ", " << row.point.label() << ": "
                        << (std::isfinite(row.round_images_per_sec.back())
                                ? fixed(row.round_images_per_sec.back(), 1) + " images/s"
                                : std::string("failed"))
                        << "\n";
                out << std::flush;
                writeSweepReport(so_far, dir);
            });
        writeSweepReport(result, dir); // with the intervals of the last round
        out << "\n" << sweepTable(result);
        const std::string charts =
            processesAxis(spec) >= 0
                ? chartFiles(out, {sweep_files::kScalingPng, sweep_files::kThroughputPng,
                                   sweep_files::kMemoryPng})
                : chartFiles(out, {sweep_files::kThroughputPng, sweep_files::kMemoryPng});
        out << "\nwrote " << (dir / sweep_files::kCsv).string() << ", " << sweep_files::kMarkdown
            << charts << "\n";
        return result.completed() > 0 ? exit_code::kOk : exit_code::kFailure;
    });
}

int ladderCommand(const LadderOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        LadderSpec spec;
        spec.base = resolveConfig(o.source);
        spec.steps = o.steps;
        spec.warmup = o.warmup;
        spec.val_batches = o.val_batches;
        spec.keep_margin = o.margin;
        spec.rounds = o.rounds;
        spec.max_rounds = std::max(o.max_rounds, o.rounds);
        spec.confidence = o.confidence;
        const auto context = probeLadderContext(spec.base.device);
        const OutputDir output = outputDir(o.out_dir, spec.base.name, "ladder");
        const RemoveIfRefused remove_if_refused(output);
        const fs::path& dir = output.path;
        out << "optimization ladder for " << spec.base.name << " on " << spec.base.device << ": "
            << spec.warmup << " warm-up + " << spec.steps << " measured steps per run, "
            << spec.rounds << "-" << spec.max_rounds
            << " rounds per rung interleaved with the best so far -> " << dir.string() << "\n";
        ProgressPrinter printer(err, o.progress && ::isatty(STDERR_FILENO));
        TrainerPointRunner runner(o.progress ? &printer : nullptr);
        CancelRegistration cancel([&runner] { runner.requestCancel(); });
        const auto result =
            runLadder(spec, context, runner, dir, [&](const RungRow& row, const auto& so_far) {
                out << "- " << row.title << (row.change.empty() ? "" : " (" + row.change + ")")
                    << ": "
                    << (row.ran ? resultSummary(row.result) + "; " + row.decision
                                : "skipped: " + row.skip_reason)
                    << "\n"
                    << std::flush;
                writeLadderReport(so_far, dir);
            });
        out << "\n" << ladderTable(result) << "\n" << ladderVerdict(result) << "\n";
        const std::string charts = chartFiles(out, {ladder_files::kThroughputPng});
        out << "wrote " << (dir / ladder_files::kMarkdown).string() << ", " << ladder_files::kCsv
            << ", " << ladder_files::kBestConfig << charts << "\n";
        return result.baseline_failed() ? exit_code::kFailure : exit_code::kOk;
    });
}

int adviseCommand(const AdviseOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        const auto run = compareEntry(loadRun(o.run_dir, true));
        if (o.json) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& a : run.advice)
                list.push_back(
                    {{"rule", a.rule}, {"severity", toString(a.severity)}, {"message", a.message}});
            out << nlohmann::json{{"run_dir", o.run_dir}, {"advice", list}}.dump(2) << "\n";
            return exit_code::kOk;
        }
        const auto& s = run.record.summary;
        out << run.label << ": median step " << fixed(s.median_step_ms, 2) << " ms (data "
            << fixed(s.median_phases.data_ms, 2) << ", copy " << fixed(s.median_phases.copy_ms, 2)
            << ", forward " << fixed(s.median_phases.forward_ms, 2) << ", backward "
            << fixed(s.median_phases.backward_ms, 2) << ", optimizer "
            << fixed(s.median_phases.optimizer_ms, 2) << "), " << fixed(s.median_images_per_sec, 1)
            << " images/s" << (run.ops ? ", profiled" : ", not profiled") << "\n";
        if (run.advice.empty()) out << "no advice: no rule fired\n";
        for (const auto& a : run.advice)
            out << "[" << toString(a.severity) << "] " << a.rule << ": " << a.message << "\n";
        return exit_code::kOk;
    });
}

namespace {

MachinePeaks rooflinePeaks(const RooflineOptions& o, const std::string& run_device) {
    if (o.peak_gflops > 0 || o.peak_gbs > 0) {
        if (!(o.peak_gflops > 0 && o.peak_gbs > 0))
            throw std::invalid_argument("give both --peak-gflops and --peak-gbs (or neither, to "
                                        "measure this machine)");
        MachinePeaks p;
        p.fp32_gflops = o.peak_gflops;
        p.bandwidth_gbs = o.peak_gbs;
        p.low_gflops = o.peak_low_gflops;
        p.low_precision = o.peak_low_gflops > 0 ? "fp16/bf16" : "";
        p.device = o.device.empty() ? run_device : o.device;
        p.source = "entered";
        return p;
    }
    PeakOptions peak;
    peak.device = !o.device.empty() ? o.device : run_device;
    if (!o.ncu_file.empty() && peak.device.rfind("cuda", 0) != 0)
        throw std::invalid_argument(
            "an Nsight Compute export needs the GPU's peaks: give "
            "--peak-gflops and --peak-gbs, or --device cuda to measure them");
    return measurePeaks(peak);
}

} // namespace

int rooflineCommand(const RooflineOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        if (o.run_dir.empty() == o.ncu_file.empty())
            throw std::invalid_argument("give either --run RUN_DIR or --ncu FILE.csv");
        std::vector<KernelCost> costs;
        std::vector<std::string> notes;
        std::string subject, device = "cpu";
        if (!o.ncu_file.empty()) {
            const auto import = readNcuCsv(o.ncu_file);
            costs = import.kernels;
            notes = import.notes;
            subject = fs::path(o.ncu_file).filename().string() + " (" +
                      std::to_string(import.launches) + " kernel launches)";
            device = "cuda";
        } else {
            const auto run = loadRun(o.run_dir, false);
            const auto ops = loadRunOps(run);
            if (!ops)
                throw std::invalid_argument(o.run_dir + ": the run has no operator table; run it "
                                                        "with profile.enabled=true (ops.csv)");
            costs = costsFromOpTable(*ops, run.info.config.precision != "fp32");
            subject = run.info.config.name;
            device = run.info.config.device;
        }
        auto roofline = buildRoofline(rooflinePeaks(o, device), costs);
        roofline.notes.insert(roofline.notes.end(), notes.begin(), notes.end());
        out << "roofline of " << subject << "\n" << rooflineText(roofline, size_t(o.limit));
        if (!o.out_dir.empty()) {
            fs::create_directories(o.out_dir);
            writeFileAtomically(fs::path(o.out_dir) / "roofline.csv", rooflineCsv(roofline));
            writeChart(rooflineChart(roofline, "Roofline: " + subject),
                       fs::path(o.out_dir) / "roofline.png");
            const auto& p = roofline.peaks;
            writeFileAtomically(fs::path(o.out_dir) / "peaks.json",
                                nlohmann::json{{"fp32_gflops", p.fp32_gflops},
                                               {"low_gflops", p.low_gflops},
                                               {"low_precision", p.low_precision},
                                               {"bandwidth_gbs", p.bandwidth_gbs},
                                               {"ridge_flop_per_byte", p.ridge()},
                                               {"device", p.device},
                                               {"source", p.source},
                                               {"notes", p.notes}}
                                        .dump(2) +
                                    "\n");
            const std::string charts = chartFiles(out, {"roofline.png"});
            out << "wrote " << (fs::path(o.out_dir) / "roofline.csv").string() << ", peaks.json"
                << charts << "\n";
        }
        return exit_code::kOk;
    });
}

int pruneCommand(const PruneCommandOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        PruneStudyOptions study;
        study.config = resolveConfig(o.source);
        study.weights = o.weights;
        study.prune = {o.amount, o.structured, o.global, o.norm, o.include_linear};
        checkPruneOptions(study.prune);
        if (!fs::is_regular_file(o.weights))
            throw std::invalid_argument("--weights " + o.weights + ": no such file");
        study.latency_runs = o.latency_runs;
        study.eval_batches = o.eval_batches;
        const OutputDir output = outputDir(o.out_dir, study.config.name, "pruned");
        const RemoveIfRefused remove_if_refused(output);
        const fs::path& dir = output.path;
        const auto result = runPruneStudy(study, dir);
        writePruneReport(result, dir);
        out << pruneText(result);
        const std::string charts = chartFiles(out, {prune_files::kSparsityPng});
        out << "wrote " << (dir / prune_files::kMarkdown).string() << ", "
            << prune_files::kLayersCsv << ", " << prune_files::kJson << charts << "\n";
        return exit_code::kOk;
    });
}

int compareCommand(const CompareOptions& o, std::ostream& out, std::ostream& err) {
    return runGuarded(err, [&] {
        if (o.runs.empty()) throw std::invalid_argument("compare needs at least one run directory");
        std::vector<fs::path> dirs(o.runs.begin(), o.runs.end());
        const auto runs = loadComparedRuns(dirs);
        out << comparisonText(runs);
        if (runs.size() > 1) out << compareNoiseNote(runToRunNoise(runs)) << "\n";
        for (const auto& r : runs)
            for (const auto& a : r.advice)
                out << r.label << " [" << toString(a.severity) << "] " << a.rule << ": "
                    << a.message << "\n";
        if (!o.out_dir.empty()) {
            writeComparison(runs, o.out_dir);
            const std::string charts =
                chartFiles(out, {compare_files::kImagesPng, compare_files::kEpochPng,
                                 compare_files::kMemoryPng, compare_files::kAccuracyPng});
            out << "wrote " << (fs::path(o.out_dir) / compare_files::kReport).string() << ", "
                << compare_files::kCsv << charts << "\n";
        }
        return exit_code::kOk;
    });
}

} // namespace ts
