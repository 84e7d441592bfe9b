#include "experiments/ReportReader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/NcuCsv.h"
#include "experiments/LadderReport.h"
#include "experiments/SweepReport.h"
#include "report/JsonNumbers.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ReportFormatError(path.string() + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The title of a report's Markdown file after `prefix` ("# Sweep of "), or "".
std::string markdownTitle(const fs::path& path, const std::string& prefix) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line) || line.rfind(prefix, 0) != 0) return {};
    return line.substr(prefix.size());
}

std::string dirName(const fs::path& dir) {
    const fs::path name = dir.filename();
    return name.empty() ? dir.parent_path().filename().string() : name.string();
}

// Columns of a CSV by header name; numbers parsed leniently ("nan", "-nan").
class Columns {
public:
    Columns(const std::vector<std::string>& header, std::string origin)
        : origin_(std::move(origin)) {
        for (size_t i = 0; i < header.size(); ++i)
            index_.emplace(header[i], i);
    }
    bool has(const std::string& name) const { return index_.count(name) > 0; }
    size_t at(const std::string& name) const {
        const auto it = index_.find(name);
        if (it == index_.end())
            throw ReportFormatError(origin_ + ": no column \"" + name + "\" in the header");
        return it->second;
    }
    std::string text(const std::vector<std::string>& row, const std::string& name) const {
        if (!has(name)) return {};
        const size_t i = at(name);
        return i < row.size() ? row[i] : std::string();
    }
    double number(const std::vector<std::string>& row, const std::string& name,
                  double fallback = 0) const {
        const std::string t = text(row, name);
        if (t.empty()) return fallback;
        char* end = nullptr;
        const double value = std::strtod(t.c_str(), &end);
        if (end != t.c_str() + t.size())
            throw ReportFormatError(origin_ + ": \"" + t + "\" in column " + name +
                                    " is not a number");
        return value;
    }
    int64_t integer(const std::vector<std::string>& row, const std::string& name) const {
        const double value = number(row, name);
        return std::isfinite(value) ? int64_t(value) : 0;
    }

private:
    std::string origin_;
    std::map<std::string, size_t> index_;
};

std::vector<std::vector<std::string>> records(const std::string& text, const std::string& origin) {
    auto rows = parseCsvRecords(text);
    if (rows.empty()) throw ReportFormatError(origin + ": empty file");
    return rows;
}

PointOutcome outcomeOf(const std::string& text, const std::string& origin) {
    PointOutcome outcome;
    if (!pointOutcomeFromString(text, outcome))
        throw ReportFormatError(origin + ": unknown status \"" + text + "\"");
    return outcome;
}

// The measured figures both CSVs share.
PointResult pointResult(const Columns& c, const std::vector<std::string>& row,
                        const std::string& origin) {
    PointResult r;
    r.outcome = outcomeOf(c.text(row, "status"), origin);
    RunSummary& s = r.summary;
    s.status = r.outcome == PointOutcome::Completed ? RunStatus::Completed : RunStatus::Failed;
    s.median_images_per_sec = c.number(row, "images_per_sec");
    s.median_step_ms = c.number(row, "median_step_ms");
    s.median_phases.data_ms = c.number(row, "data_ms");
    s.median_phases.copy_ms = c.number(row, "copy_ms");
    s.median_phases.forward_ms = c.number(row, "forward_ms");
    s.median_phases.backward_ms = c.number(row, "backward_ms");
    s.median_phases.optimizer_ms = c.number(row, "optimizer_ms");
    s.peak_rss_bytes = c.integer(row, "peak_rss_bytes");
    s.peak_device_bytes = c.integer(row, "peak_device_bytes");
    s.peak_tensor_bytes = c.integer(row, "peak_tensor_bytes");
    s.steps_completed = c.integer(row, "steps");
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    s.final_val_accuracy = c.number(row, "accuracy", kNaN);
    s.final_train_loss = c.number(row, "final_train_loss", kNaN);
    r.memory_bytes = c.integer(row, "memory_bytes");
    r.run_dir = c.text(row, "run_dir");
    return r;
}

} // namespace

bool pointOutcomeFromString(const std::string& text, PointOutcome& outcome) {
    for (PointOutcome o : {PointOutcome::Completed, PointOutcome::Failed, PointOutcome::OutOfMemory,
                           PointOutcome::Skipped})
        if (text == toString(o)) {
            outcome = o;
            return true;
        }
    return false;
}

ReportKind reportKind(const fs::path& dir) {
    std::error_code ignored;
    if (fs::is_regular_file(dir / sweep_files::kCsv, ignored)) return ReportKind::Sweep;
    if (fs::is_regular_file(dir / ladder_files::kCsv, ignored)) return ReportKind::Ladder;
    if (fs::is_regular_file(dir / prune_files::kJson, ignored)) return ReportKind::Prune;
    return ReportKind::None;
}

ExperimentReport readExperimentReport(const fs::path& dir) {
    ExperimentReport report;
    report.kind = reportKind(dir);
    switch (report.kind) {
    case ReportKind::Sweep:
        report.sweep = readSweepReport(dir);
        break;
    case ReportKind::Ladder:
        report.ladder = readLadderReport(dir);
        break;
    case ReportKind::Prune:
        report.prune = readPruneReport(dir);
        break;
    case ReportKind::None:
        throw ReportFormatError(dir.string() + " holds no " + sweep_files::kCsv + ", " +
                                ladder_files::kCsv + " or " + prune_files::kJson +
                                ": choose the directory trainscope-cli sweep, ladder or prune "
                                "wrote (--out).");
    }
    return report;
}

namespace {

// The rounds columns (sweeps written before rounds existed have none).
void readSweepRounds(const Columns& c, const std::vector<std::string>& row, SweepRow& r,
                     SweepResult& result) {
    if (!c.has("rounds")) return;
    std::istringstream values(c.text(row, "round_images_per_sec"));
    for (std::string v; values >> v;)
        r.round_images_per_sec.push_back(v == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                                    : std::strtod(v.c_str(), nullptr));
    result.rounds = std::max(result.rounds, int(r.round_images_per_sec.size()));
    r.level.value = r.result.summary.median_images_per_sec;
    r.level.low = c.number(row, "images_per_sec_low");
    r.level.high = c.number(row, "images_per_sec_high");
    r.level.samples = int(c.integer(row, "rounds"));
    r.level.confidence = c.number(row, "confidence");
    r.best = c.text(row, "best") == "1";
    if (r.level.samples > 1 && !r.best) {
        r.vs_best.gain = c.number(row, "gain_vs_best");
        r.vs_best.low = c.number(row, "gain_vs_best_low");
        r.vs_best.high = c.number(row, "gain_vs_best_high");
        r.vs_best.rounds = r.level.samples;
        r.vs_best.confidence = r.level.confidence;
    }
    result.spec.confidence = r.level.confidence > 0 ? r.level.confidence : result.spec.confidence;
    result.spec.repeat = result.rounds;
}

// A sweep over processes: each point's process count and communication.
void readSweepScaling(const Columns& c, const std::vector<std::string>& row, SweepRow& r,
                      const std::string& origin) {
    for (const auto& [key, value] : r.point.values) {
        if (key != kProcessesKey) continue;
        char* end = nullptr;
        const long n = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || end != value.c_str() + value.size() || n < 1 || n > 1024)
            throw ReportFormatError(origin + ": \"" + value + "\" in column " + kProcessesKey +
                                    " is not a number of processes");
        r.point.processes = int(n);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    r.allreduce_ms = c.number(row, "allreduce_ms_per_step", nan);
    r.comm_wait_ms = c.number(row, "comm_wait_ms_per_step", nan);
    r.overlap_pct = c.number(row, "overlap_pct", nan);
}

} // namespace

SweepResult parseSweepCsv(const std::string& text, const std::string& origin) {
    const auto rows = records(text, origin);
    const auto& header = rows.front();
    const auto status = std::find(header.begin(), header.end(), "status");
    if (header.empty() || header.front() != "point" || status == header.end() ||
        status - header.begin() < 2)
        throw ReportFormatError(origin + ": not a sweep.csv (expected point,<key>...,status,...)");
    const Columns c(header, origin);
    SweepResult result;
    if (status - header.begin() > 3)
        throw ReportFormatError(origin + ": " + std::to_string(status - header.begin() - 1) +
                                " key columns before status; a sweep has one or two");
    for (auto key = header.begin() + 1; key != status; ++key)
        result.spec.axes.push_back({*key, {}});
    const size_t keys = result.spec.axes.size();
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto& row = rows[i];
        if (row.size() < header.size())
            throw ReportFormatError(origin + ": row " + std::to_string(i + 1) + " has " +
                                    std::to_string(row.size()) + " fields, the header " +
                                    std::to_string(header.size()));
        SweepRow r;
        r.point.index = size_t(c.integer(row, "point"));
        for (size_t k = 0; k < keys; ++k) {
            auto& axis = result.spec.axes[k];
            r.point.values.emplace_back(axis.key, row[k + 1]);
            if (std::find(axis.values.begin(), axis.values.end(), row[k + 1]) == axis.values.end())
                axis.values.push_back(row[k + 1]);
        }
        r.result = pointResult(c, row, origin);
        r.result.message = c.text(row, "message");
        readSweepScaling(c, row, r, origin);
        r.point.dir_name = r.result.run_dir.filename().string();
        r.predicted_bytes = c.integer(row, "predicted_bytes");
        r.available_bytes = c.integer(row, "available_bytes");
        readSweepRounds(c, row, r, result);
        result.rows.push_back(std::move(r));
    }
    return result;
}

LadderResult parseLadderCsv(const std::string& text, const std::string& origin) {
    const auto rows = records(text, origin);
    const auto& header = rows.front();
    if (header.empty() || header.front() != "rung")
        throw ReportFormatError(origin + ": not a ladder.csv (expected rung,title,change,...)");
    const Columns c(header, origin);
    c.at("status");
    c.at("images_per_sec");
    LadderResult result;
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto& row = rows[i];
        RungRow r;
        r.id = c.text(row, "rung");
        r.title = c.text(row, "title");
        r.change = c.text(row, "change");
        r.result = pointResult(c, row, origin);
        r.ran = r.result.outcome != PointOutcome::Skipped;
        // ladder.csv got its steps column late: older files measured every
        // completed rung, so count them as measured (the GUI shows figures
        // only for measured rungs).
        if (!c.has("steps") && r.result.outcome == PointOutcome::Completed)
            r.result.summary.steps_completed = 1;
        r.speedup = c.number(row, "speedup");
        r.gain = c.number(row, "gain");
        r.kept = c.text(row, "kept") == "1";
        // Ladders written before rounds existed have no interval columns.
        if (c.has("rounds")) {
            GainInterval& g = r.id == "baseline" ? result.noise_floor : r.interval;
            g.gain = r.gain;
            g.low = c.number(row, "gain_low");
            g.high = c.number(row, "gain_high");
            g.rounds = int(c.integer(row, "rounds"));
            g.spread = c.number(row, "spread");
            g.confidence = c.number(row, "confidence");
            r.level.value = r.result.summary.median_images_per_sec;
            r.level.low = c.number(row, "images_per_sec_low");
            r.level.high = c.number(row, "images_per_sec_high");
            r.level.confidence = r.level.high > r.level.low ? g.confidence : 0;
            r.level.samples = g.rounds;
            r.implausible = c.text(row, "implausible");
        }
        const std::string decision = c.text(row, "decision");
        if (r.ran) {
            r.decision = decision;
            r.result.message = r.result.outcome == PointOutcome::Completed ? "" : decision;
        } else {
            r.skip_reason = decision;
            r.result.message = decision;
            r.decision = "skipped";
        }
        if (r.kept && r.result.outcome == PointOutcome::Completed) {
            if (result.rows.empty())
                result.baseline_images_per_sec = r.result.summary.median_images_per_sec;
            result.best_images_per_sec = r.result.summary.median_images_per_sec;
        }
        result.rows.push_back(std::move(r));
    }
    return result;
}

SweepResult readSweepReport(const fs::path& dir) {
    const fs::path csv = dir / sweep_files::kCsv;
    SweepResult result = parseSweepCsv(readText(csv), csv.string());
    result.spec.base.name = markdownTitle(dir / sweep_files::kMarkdown, "# Sweep of ");
    if (result.spec.base.name.empty()) result.spec.base.name = dirName(dir);
    return result;
}

LadderResult readLadderReport(const fs::path& dir) {
    const fs::path csv = dir / ladder_files::kCsv;
    LadderResult result = parseLadderCsv(readText(csv), csv.string());
    result.spec.base.name = markdownTitle(dir / ladder_files::kMarkdown, "# Optimization ladder: ");
    if (result.spec.base.name.empty()) result.spec.base.name = dirName(dir);
    return result;
}

namespace {

std::vector<int64_t> shapeFrom(const std::string& text, const std::string& origin) {
    std::vector<int64_t> shape;
    std::istringstream in(text);
    std::string dim;
    while (std::getline(in, dim, 'x')) {
        char* end = nullptr;
        const long long value = std::strtoll(dim.c_str(), &end, 10);
        if (dim.empty() || end != dim.c_str() + dim.size())
            throw ReportFormatError(origin + ": \"" + text + "\" is not a shape like 64x3x7x7");
        shape.push_back(value);
    }
    return shape;
}

std::vector<LayerSparsity> parsePruneLayersCsv(const std::string& text, const std::string& origin) {
    const auto rows = records(text, origin);
    if (rows.front().empty() || rows.front().front() != "layer")
        throw ReportFormatError(origin + ": not a prune_layers.csv (expected layer,shape,...)");
    const Columns c(rows.front(), origin);
    for (const char* name : {"params", "zeros_before", "zeros_after"})
        c.at(name); // required
    std::vector<LayerSparsity> layers;
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto& row = rows[i];
        if (row.size() == 1 && row.front().empty()) continue;
        LayerSparsity l;
        l.name = c.text(row, "layer");
        l.shape = shapeFrom(c.text(row, "shape"), origin);
        l.params = c.integer(row, "params");
        l.zeros_before = c.integer(row, "zeros_before");
        l.zeros_after = c.integer(row, "zeros_after");
        l.channels = c.integer(row, "channels");
        l.channels_zeroed = c.integer(row, "channels_zeroed");
        layers.push_back(std::move(l));
    }
    return layers;
}

} // namespace

PruneStudyResult readPruneReport(const fs::path& dir) {
    const fs::path json_path = dir / prune_files::kJson;
    const std::string origin = json_path.string();
    PruneStudyResult r;
    try {
        const auto j = nlohmann::json::parse(readText(json_path));
        if (!j.is_object() || !j.contains("zeros_after") || !j.contains("accuracy_after"))
            throw ReportFormatError(origin +
                                    ": not a prune.json (no zeros_after / accuracy_after)");
        r.model = j.value("model", std::string());
        r.device = j.value("device", std::string());
        r.weights = j.value("weights", std::string());
        r.pruned_weights = j.value("pruned_weights", std::string());
        r.before.accuracy = j.value("accuracy_before", 0.0);
        r.after.accuracy = j.value("accuracy_after", 0.0);
        r.before.loss = j.value("loss_before", 0.0);
        r.after.loss = j.value("loss_after", 0.0);
        r.before.samples = r.after.samples = intValue(j, "eval_samples", int64_t(0));
        r.latency_batch = intValue(j, "latency_batch", 0);
        r.latency_runs = intValue(j, "latency_runs", 0);
        r.latency_before_ms = j.value("latency_before_ms", 0.0);
        r.latency_after_ms = j.value("latency_after_ms", 0.0);
        r.latency_before_spread_ms = j.value("latency_before_spread_ms", 0.0);
        r.latency_after_spread_ms = j.value("latency_after_spread_ms", 0.0);
        r.verdict = j.value("verdict", std::string());
        r.prune.amount = j.value("amount", r.prune.amount);
        r.prune.structured = j.value("structured", r.prune.structured);
        r.prune.global = j.value("global", r.prune.global);
        r.prune.norm = j.value("norm", r.prune.norm);
        r.prune.include_linear = j.value("include_linear", r.prune.include_linear);
    } catch (const nlohmann::json::exception& e) {
        throw ReportFormatError(origin + ": " + e.what());
    } catch (const std::out_of_range& e) { // intValue: a float that fits no integer
        throw ReportFormatError(origin + ": " + e.what());
    }
    const fs::path csv = dir / prune_files::kLayersCsv;
    r.layers = parsePruneLayersCsv(readText(csv), csv.string());
    return r;
}

} // namespace ts
