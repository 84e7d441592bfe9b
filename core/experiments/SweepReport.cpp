#include "experiments/SweepReport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "experiments/MemoryGuard.h"
#include "experiments/StudyTables.h"
#include "experiments/SweepScaling.h"
#include "report/ChartRenderer.h"
#include "report/MarkdownTable.h"
#include "util/AtomicFile.h"
#include "util/Csv.h"

namespace ts {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Distinct values of axis `a` in run order.
std::vector<std::string> distinctValues(const SweepResult& r, size_t a) {
    std::vector<std::string> out;
    for (const auto& row : r.rows) {
        const auto& v = row.point.values[a].second;
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    }
    return out;
}

double imagesPerSec(const SweepRow& row) {
    return row.result.outcome == PointOutcome::Completed ? row.imagesPerSec() : kNaN;
}

// Half the interval of the point's images/s over its rounds (t over log
// values: nearly symmetric at these spreads); NaN without one.
double imagesPerSecError(const SweepRow& row) {
    return row.result.outcome == PointOutcome::Completed && row.level.confidence > 0
               ? (row.level.high - row.level.low) / 2
               : kNaN;
}

double memoryMiB(const SweepRow& row) {
    return row.result.memory_bytes > 0 ? double(row.result.memory_bytes) / (1024.0 * 1024.0) : kNaN;
}

double predictedMiB(const SweepRow& row) {
    return row.result.outcome == PointOutcome::Skipped && row.predicted_bytes > 0
               ? double(row.predicted_bytes) / (1024.0 * 1024.0)
               : kNaN;
}

// Values printed next to their points: only when they stay readable (one
// line, few points).
constexpr size_t kMaxValueLabels = 12;

// One line per value of the second key (a single line without one); x is the
// position of the first key's value, labelled with the value itself.
chart::XyChart lineChart(const SweepResult& r, const std::string& title, const std::string& y_label,
                         double (*value)(const SweepRow&), int label_decimals,
                         double (*error)(const SweepRow&) = nullptr) {
    chart::XyChart c;
    c.title = title;
    if (r.spec.axes.empty()) return c;
    c.x_label = r.spec.axes[0].key;
    c.y_label = y_label;
    const auto xs = distinctValues(r, 0);
    for (size_t i = 0; i < xs.size(); ++i)
        c.x_ticks.emplace_back(double(i), xs[i]);
    const auto groups =
        r.spec.axes.size() > 1 ? distinctValues(r, 1) : std::vector<std::string>{""};
    const bool labelled = groups.size() == 1 && xs.size() <= kMaxValueLabels;
    for (size_t g = 0; g < groups.size(); ++g) {
        chart::XySeries s;
        s.name = groups[g].empty() ? y_label : r.spec.axes[1].key + "=" + groups[g];
        s.color = chart::paletteColor(g);
        for (size_t i = 0; i < xs.size(); ++i) {
            double y = kNaN, e = kNaN;
            for (const auto& row : r.rows)
                if (row.point.values[0].second == xs[i] &&
                    (groups[g].empty() || row.point.values[1].second == groups[g])) {
                    y = value(row);
                    e = error ? error(row) : kNaN;
                }
            s.xs.push_back(double(i));
            s.ys.push_back(y);
            if (error) s.errors.push_back(e);
            if (labelled) s.point_labels.push_back(std::isnan(y) ? "" : fixed(y, label_decimals));
        }
        c.series.push_back(std::move(s));
    }
    return c;
}

} // namespace

std::string sweepNoiseSentence(const SweepResult& r) {
    if (r.rounds < 2)
        return "Each point ran once: there is no interval, and differences of up to about 10% "
               "between points can be noise on a shared machine (repeat with --repeat 3).";
    std::ostringstream out;
    out << "Each point ran " << r.rounds << " times, in rounds over all points in alternating "
        << "order"
        << (r.rounds < r.spec.repeat ? " (the time budget stopped the rounds early)" : "")
        << ". images/s is the geometric mean over the rounds with its "
        << fixed(r.spec.confidence * 100, 0) << "% interval; \"vs best\" is the gain against the "
        << "fastest point, paired by round, and says \"within noise\" where its interval holds 0.";
    std::string within;
    for (const auto& row : r.rows)
        if (row.withinNoiseOfBest()) within += (within.empty() ? "" : ", ") + row.point.label();
    for (const auto& row : r.rows)
        if (row.best)
            out << " Fastest: " << row.point.label() << " (" << fixed(row.imagesPerSec(), 1)
                << " images/s)"
                << (within.empty() ? "; every other point is measurably slower."
                                   : "; not measurably different from it: " + within + ".");
    return out.str();
}

std::string sweepTable(const SweepResult& result) {
    return table::toText(sweepTableSpec(result.rows)) + sweepNoiseSentence(result) + "\n";
}

std::string sweepMarkdown(const SweepResult& result) {
    std::ostringstream out;
    out << "# Sweep of " << result.spec.base.name << "\n\n";
    std::string keys;
    for (const auto& axis : result.spec.axes)
        keys += (keys.empty() ? "" : " x ") + axis.key;
    out << "Swept " << keys << " with " << result.spec.warmup << " warm-up + " << result.spec.steps
        << " measured steps per point on " << result.spec.base.device << " ("
        << result.spec.base.precision << "); " << result.completed() << " of " << result.rows.size()
        << " points completed. Memory is what each point needed above the "
        << "idle process (peak device allocation on CUDA, resident-set growth on the host).\n\n"
        << sweepNoiseSentence(result) << "\n\n";
    const bool scaling = processesAxis(result.spec) >= 0;
    if (scaling) out << scalingSentence(result) << "\n\n";
    out << toMarkdown(sweepTableSpec(result.rows));
    out << "\n";
    if (scaling) out << chartMarkdown("speedup", sweep_files::kScalingPng) << "\n\n";
    out << chartMarkdown("images/s", sweep_files::kThroughputPng) << "\n\n"
        << chartMarkdown("memory", sweep_files::kMemoryPng) << "\n";
    return out.str();
}

std::string sweepCsv(const SweepResult& result) {
    std::ostringstream out;
    out << "point";
    for (const auto& axis : result.spec.axes)
        out << ',' << csvField(axis.key);
    out << ",status,images_per_sec,images_per_sec_low,images_per_sec_high,rounds,round_images_"
           "per_sec,best,gain_vs_best,gain_vs_best_low,gain_vs_best_high,confidence,"
           "median_step_ms,data_ms,copy_ms,forward_ms,backward_ms,"
           "optimizer_ms,memory_bytes,predicted_bytes,available_bytes,peak_rss_bytes,"
           "peak_device_bytes,peak_tensor_bytes,steps,accuracy,";
    const bool scaling = processesAxis(result.spec) >= 0;
    if (scaling)
        out << "speedup,scaling_efficiency,allreduce_ms_per_step,comm_wait_ms_per_step,"
               "overlap_pct,";
    out << "message,run_dir\n";
    for (const auto& row : result.rows) {
        const auto& s = row.result.summary;
        const auto& p = s.median_phases;
        out << row.point.index;
        for (const auto& kv : row.point.values)
            out << ',' << csvField(kv.second);
        std::string rounds;
        for (double v : row.round_images_per_sec)
            rounds += (rounds.empty() ? "" : " ") + (std::isfinite(v) ? fixed(v, 3) : "nan");
        out << ',' << toString(row.result.outcome) << ',' << row.imagesPerSec() << ','
            << row.level.low << ',' << row.level.high << ',' << row.level.samples << ','
            << csvField(rounds) << ',' << (row.best ? 1 : 0) << ',' << row.vs_best.gain << ','
            << row.vs_best.low << ',' << row.vs_best.high << ',' << row.level.confidence << ','
            << s.median_step_ms << ',' << p.data_ms << ',' << p.copy_ms << ',' << p.forward_ms
            << ',' << p.backward_ms << ',' << p.optimizer_ms << ',' << row.result.memory_bytes
            << ',' << row.predicted_bytes << ',' << row.available_bytes << ',' << s.peak_rss_bytes
            << ',' << s.peak_device_bytes << ',' << s.peak_tensor_bytes << ',' << s.steps_completed
            << ',' << row.result.accuracy() << ',';
        if (scaling) {
            const ScalingFigures f = scalingFigures(result, row);
            out << f.speedup << ',' << f.efficiency << ',' << row.allreduce_ms << ','
                << row.comm_wait_ms << ',' << row.overlap_pct << ',';
        }
        out << csvField(row.result.message) << ',' << csvField(row.result.run_dir.string()) << '\n';
    }
    return out.str();
}

chart::XyChart sweepThroughputChart(const SweepResult& result) {
    const std::string key = result.spec.axes.empty() ? "" : result.spec.axes[0].key;
    return lineChart(result, result.spec.base.name + ": images/s by " + key, "images/s",
                     imagesPerSec, 1, imagesPerSecError);
}

chart::XyChart sweepMemoryChart(const SweepResult& result) {
    const std::string key = result.spec.axes.empty() ? "" : result.spec.axes[0].key;
    auto memory =
        lineChart(result, result.spec.base.name + ": memory by " + key, "MiB", memoryMiB, 0);
    const bool any_predicted_skip =
        std::any_of(result.rows.begin(), result.rows.end(),
                    [](const SweepRow& row) { return !std::isnan(predictedMiB(row)); });
    if (result.spec.axes.size() == 1 && any_predicted_skip) {
        memory.series[0].name = "measured";
        auto predicted = lineChart(result, "", "", predictedMiB, 0).series[0];
        predicted.name = "predicted (skipped)";
        predicted.color = chart::paletteColor(3);
        predicted.line = false;
        predicted.hollow_markers = true;
        memory.series.push_back(std::move(predicted));
    }
    return memory;
}

void writeSweepReport(const SweepResult& result, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    writeFileAtomically(dir / sweep_files::kCsv, sweepCsv(result));
    writeFileAtomically(dir / sweep_files::kMarkdown, sweepMarkdown(result));
    if (result.completed() == 0) return;
    writeChart(sweepThroughputChart(result), dir / sweep_files::kThroughputPng);
    writeChart(sweepMemoryChart(result), dir / sweep_files::kMemoryPng);
    if (processesAxis(result.spec) >= 0)
        writeChart(sweepScalingChart(result), dir / sweep_files::kScalingPng);
}

} // namespace ts
