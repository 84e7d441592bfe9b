#include "experiments/LadderReport.h"

#include <cmath>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/ConfigJson.h"
#include "report/ChartRenderer.h"
#include "report/MarkdownTable.h"
#include "util/AtomicFile.h"
#include "util/Csv.h"

namespace ts {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<std::string> kHeaders = {"rung",     "change",  "status",     "images/s",
                                           "speed-up", "step ms", "memory MiB", "accuracy",
                                           "kept",     "decision"};

TableRows rows(const LadderResult& r) {
    TableRows out;
    for (const auto& row : r.rows) {
        const auto& s = row.result.summary;
        const bool measured = row.ran && s.steps_completed > 0;
        out.push_back({row.title, row.change.empty() ? "-" : row.change,
                       toString(row.result.outcome),
                       measured ? fixed(s.median_images_per_sec, 1) : "-",
                       measured && row.speedup > 0 ? speedup(row.speedup) : "-",
                       measured ? fixed(s.median_step_ms, 2) : "-", mib(row.result.memory_bytes),
                       measured ? percent(row.result.accuracy()) : "-", row.kept ? "yes" : "no",
                       row.ran ? row.decision : row.skip_reason});
    }
    return out;
}

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

std::string ladderTable(const LadderResult& result) {
    return plainTable(kHeaders, rows(result));
}

std::string ladderMarkdown(const LadderResult& r) {
    std::ostringstream out;
    out << "# Optimization ladder: " << r.spec.base.name << "\n\n"
        << "Each rung adds one change on top of the best configuration so far and runs "
        << r.spec.warmup << " warm-up + " << r.spec.steps << " measured steps on "
        << r.spec.base.device << " (model " << r.spec.base.model << ", dataset "
        << r.spec.base.dataset << ", batch " << r.spec.base.batch_size << "). A rung is kept "
        << "when its median images/s beats the best so far by more than "
        << fixed(r.spec.keep_margin * 100, 0) << "%. Accuracy is measured on "
        << (r.spec.val_batches > 0 ? std::to_string(r.spec.val_batches) + " validation batches"
                                   : std::string("the validation split"))
        << " after the same number of steps (the larger-batch rung sees more images in them).\n\n"
        << markdownTable(kHeaders, rows(r),
                         {"images/s", "speed-up", "step ms", "memory MiB", "accuracy"})
        << "\n"
        << ladderVerdict(r) << "\n\n"
        << chartMarkdown("images/s per rung", ladder_files::kThroughputPng) << "\n";
    return out.str();
}

std::string ladderCsv(const LadderResult& r) {
    std::ostringstream out;
    out << "rung,title,change,status,images_per_sec,speedup,gain,median_step_ms,data_ms,"
           "memory_bytes,accuracy,final_train_loss,kept,decision,run_dir\n";
    for (const auto& row : r.rows) {
        const auto& s = row.result.summary;
        out << row.id << ',' << csvField(row.title) << ',' << csvField(row.change) << ','
            << toString(row.result.outcome) << ',' << s.median_images_per_sec << ',' << row.speedup
            << ',' << row.gain << ',' << s.median_step_ms << ',' << s.median_phases.data_ms << ','
            << row.result.memory_bytes << ',' << row.result.accuracy() << ',' << s.final_train_loss
            << ',' << (row.kept ? 1 : 0) << ','
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
        const double ips = measured ? row.result.summary.median_images_per_sec : kNaN;
        kept.values.push_back(row.kept ? ips : kNaN);
        dropped.values.push_back(row.kept ? kNaN : ips);
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
