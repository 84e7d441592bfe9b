#include "experiments/LadderReport.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/ConfigJson.h"
#include "experiments/StudyTables.h"
#include "report/ChartRenderer.h"
#include "report/MarkdownTable.h"
#include "util/AtomicFile.h"
#include "util/Csv.h"

namespace ts {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string keptChanges(const LadderResult& r) {
    std::string out;
    for (const auto& row : r.rows)
        if (row.kept && !row.change.empty()) out += (out.empty() ? "" : ", ") + row.change;
    return out.empty() ? "none" : out;
}

} // namespace

std::string ladderVerdict(const LadderResult& r) {
    if (r.baseline_failed())
        return "The baseline failed (" + r.rows.front().result.message + "); nothing was compared.";
    std::ostringstream out;
    out << "Best: " << fixed(r.best_images_per_sec, 1) << " images/s, "
        << speedup(r.best_images_per_sec / r.baseline_images_per_sec) << " the baseline's "
        << fixed(r.baseline_images_per_sec, 1) << ", with: " << keptChanges(r) << ".";
    return out.str();
}

std::string noiseFloorLine(const LadderResult& r) {
    const GainInterval& f = r.noise_floor;
    if (!f.hasInterval()) return "Noise floor: not measured (the baseline did not complete).";
    char spread[32];
    std::snprintf(spread, sizeof(spread), "%.1f%%", f.spread * 100);
    return "Noise floor: the baseline against itself over " + std::to_string(f.rounds) +
           " rounds: " + formatGain(f) + ", per-round spread " + spread +
           " (standard deviation of the log ratios).";
}

std::string ladderTable(const LadderResult& result) {
    return table::toText(ladderTableSpec(result.rows)) + noiseFloorLine(result) + "\n";
}

std::string ladderMarkdown(const LadderResult& r) {
    std::ostringstream out;
    out << "# Optimization ladder: " << r.spec.base.name << "\n\n"
        << "Each rung adds one change on top of the best configuration so far. Every run has "
        << r.spec.warmup << " warm-up + " << r.spec.steps << " measured steps on "
        << r.spec.base.device << " (model " << r.spec.base.model << ", dataset "
        << r.spec.base.dataset << ", batch " << r.spec.base.batch_size << "). A rung runs in "
        << "rounds interleaved with the best configuration so far (best then candidate, then "
        << "the other way round), " << r.spec.rounds << " to " << r.spec.max_rounds
        << " rounds: more while the gain's interval straddles the margin. The gain is the "
        << "geometric mean of the per-round ratios with its " << fixed(r.spec.confidence * 100, 0)
        << "% interval (Student's t over the rounds). A rung is kept only when the whole "
        << "interval lies above the " << fixed(r.spec.keep_margin * 100, 0)
        << "% margin and the gain is not more than the phase the change acts on allows.\n\n"
        << noiseFloorLine(r) << "\n\nAccuracy is measured on "
        << (r.spec.val_batches > 0 ? std::to_string(r.spec.val_batches) + " validation batches"
                                   : std::string("the validation split"))
        << " after the same number of steps (the larger-batch rung sees more images in them).\n\n"
        << toMarkdown(ladderTableSpec(r.rows)) << "\n"
        << ladderVerdict(r) << "\n\n"
        << chartMarkdown("images/s per rung", ladder_files::kThroughputPng) << "\n";
    return out.str();
}

std::string ladderCsv(const LadderResult& r) {
    std::ostringstream out;
    out << "rung,title,change,status,images_per_sec,images_per_sec_low,images_per_sec_high,"
           "speedup,gain,gain_low,gain_high,rounds,spread,confidence,median_step_ms,data_ms,"
           "copy_ms,forward_ms,backward_ms,optimizer_ms,memory_bytes,accuracy,final_train_loss,"
           "steps,kept,implausible,decision,run_dir\n";
    for (const auto& row : r.rows) {
        const auto& s = row.result.summary;
        const auto& p = s.median_phases;
        // The baseline's interval is the noise floor's.
        const GainInterval& g = row.id == "baseline" ? r.noise_floor : row.interval;
        out << row.id << ',' << csvField(row.title) << ',' << csvField(row.change) << ','
            << toString(row.result.outcome) << ',' << row.imagesPerSec() << ',' << row.level.low
            << ',' << row.level.high << ',' << row.speedup << ',' << g.gain << ',' << g.low << ','
            << g.high << ',' << g.rounds << ',' << g.spread << ',' << g.confidence << ','
            << s.median_step_ms << ',' << p.data_ms << ',' << p.copy_ms << ',' << p.forward_ms
            << ',' << p.backward_ms << ',' << p.optimizer_ms << ',' << row.result.memory_bytes
            << ',' << row.result.accuracy() << ',' << s.final_train_loss << ',' << s.steps_completed
            << ',' << (row.kept ? 1 : 0) << ',' << csvField(row.implausible) << ','
            << csvField(row.ran ? row.decision : row.skip_reason) << ','
            << csvField(row.result.run_dir.string()) << '\n';
    }
    return out.str();
}

chart::BarChart ladderThroughputChart(const LadderResult& r) {
    chart::BarChart c;
    c.title = (r.spec.base.name.empty() ? "" : r.spec.base.name + ": ") + "images/s per rung";
    c.y_label = "images/s";
    chart::BarSeries kept{"kept", {}, chart::paletteColor(2), {}, {}};
    chart::BarSeries dropped{"not kept", {}, chart::kNeutralColor, {}, {}};
    for (const auto& row : r.rows) {
        c.categories.push_back(row.id);
        const bool measured = row.ran && row.result.outcome == PointOutcome::Completed;
        const double ips = measured ? row.imagesPerSec() : kNaN;
        kept.values.push_back(row.kept ? ips : kNaN);
        dropped.values.push_back(row.kept ? kNaN : ips);
        // Error bars: half the interval of the rung's images/s over its rounds
        // (t over log values, so nearly symmetric at these spreads).
        const double error =
            measured && row.level.confidence > 0 ? (row.level.high - row.level.low) / 2 : kNaN;
        kept.errors.push_back(row.kept ? error : kNaN);
        dropped.errors.push_back(row.kept ? kNaN : error);
        // One label per rung, on whichever bar it has; rungs without a bar say why.
        std::string label = !measured         ? (row.ran ? "failed" : "skipped")
                            : row.speedup > 0 ? fixed(ips, 1) + "\n" + speedup(row.speedup)
                                              : fixed(ips, 1);
        kept.labels.push_back(row.kept || !measured ? label : "");
        dropped.labels.push_back(row.kept || !measured ? "" : label);
    }
    c.series = {kept, dropped};
    c.overlay = true;
    if (r.baseline_images_per_sec > 0)
        c.lines.push_back({"baseline", r.baseline_images_per_sec, chart::paletteColor(0)});
    return c;
}

void writeLadderReport(const LadderResult& r, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    writeFileAtomically(dir / ladder_files::kCsv, ladderCsv(r));
    writeFileAtomically(dir / ladder_files::kMarkdown, ladderMarkdown(r));
    writeFileAtomically(dir / ladder_files::kBestConfig, configToJson(r.best).dump(2) + "\n");
    writeChart(ladderThroughputChart(r), dir / ladder_files::kThroughputPng);
}

} // namespace ts
