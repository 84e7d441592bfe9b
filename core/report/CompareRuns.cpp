#include "report/CompareRuns.h"

#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "report/ChartRenderer.h"
#include "report/CompareInputs.h"
#include "report/CompareNoise.h"
#include "report/MarkdownTable.h"
#include "report/RunTables.h"
#include "util/AtomicFile.h"
#include "util/Csv.h"

namespace ts {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double mibOf(int64_t bytes) {
    return bytes > 0 ? double(bytes) / (1024.0 * 1024.0) : kNaN;
}

chart::BarChart bars(const std::vector<ComparisonFigures>& runs, const std::string& title,
                     const std::string& y_label) {
    chart::BarChart c;
    c.title = title;
    c.y_label = y_label;
    for (const auto& r : runs)
        c.categories.push_back(r.label);
    return c;
}

} // namespace

double ComparedRun::accuracy() const {
    const auto& s = record.summary;
    if (!std::isnan(s.best_val_accuracy)) return s.best_val_accuracy;
    if (!std::isnan(s.final_val_accuracy)) return s.final_val_accuracy;
    return s.final_train_accuracy;
}

int64_t ComparedRun::peakMemoryBytes() const {
    const auto& s = record.summary;
    return s.peak_device_bytes > 0 ? s.peak_device_bytes : s.peak_rss_bytes;
}

ComparedRun compareEntry(RunRecord record) {
    ComparedRun r;
    r.record = std::move(record);
    r.label = r.record.info.config.name;
    r.ops = loadRunOps(r.record);
    r.profiled_steps = profiledSteps(r.record);
    AdviceInput input;
    input.info = r.record.info;
    input.summary = r.record.summary;
    input.ops = r.ops ? &*r.ops : nullptr;
    input.profiled_steps = r.profiled_steps;
    input.steps = r.record.steps.empty() ? nullptr : &r.record.steps;
    r.advice = adviseRun(input);
    return r;
}

std::vector<ComparedRun> loadComparedRuns(const std::vector<std::filesystem::path>& dirs) {
    std::vector<ComparedRun> runs;
    std::map<std::string, int> seen;
    for (const auto& dir : dirs) {
        runs.push_back(compareEntry(loadRun(dir, /*with_steps=*/true)));
        auto& label = runs.back().label;
        if (seen[label]++ > 0) label += " (" + dir.filename().string() + ")";
    }
    return runs;
}

std::string comparisonCsv(const std::vector<ComparedRun>& runs) {
    std::ostringstream out;
    out << "label,run_dir,status,model,dataset,device,precision,batch_size,workers,threads,"
           "channels_last,pin_memory,images_per_sec,speedup,median_step_ms,data_ms,copy_ms,"
           "forward_ms,backward_ms,optimizer_ms,other_ms,mean_epoch_time_s,total_time_s,"
           "peak_rss_bytes,peak_device_bytes,peak_tensor_bytes,final_train_loss,"
           "final_val_accuracy,best_val_accuracy,steps,advice,median_page_faults\n";
    const double base = runs.empty() ? 0 : runs[0].record.summary.median_images_per_sec;
    for (const auto& r : runs) {
        const auto& c = r.record.info.config;
        const auto& s = r.record.summary;
        const auto& p = s.median_phases;
        std::string advice;
        for (const auto& a : r.advice)
            advice += (advice.empty() ? "" : ";") + a.rule;
        out << csvField(r.label) << ',' << csvField(r.record.dir.string()) << ','
            << toString(s.status) << ',' << c.model << ',' << c.dataset << ',' << c.device << ','
            << c.precision << ',' << c.batch_size << ',' << c.workers << ',' << c.threads << ','
            << c.channels_last << ',' << c.pin_memory << ',' << s.median_images_per_sec << ','
            << (base > 0 ? s.median_images_per_sec / base : kNaN) << ',' << s.median_step_ms << ','
            << p.data_ms << ',' << p.copy_ms << ',' << p.forward_ms << ',' << p.backward_ms << ','
            << p.optimizer_ms << ',' << p.other_ms << ',' << s.mean_epoch_time_s << ','
            << s.total_time_s << ',' << s.peak_rss_bytes << ',' << s.peak_device_bytes << ','
            << s.peak_tensor_bytes << ',' << s.final_train_loss << ',' << s.final_val_accuracy
            << ',' << s.best_val_accuracy << ',' << s.steps_completed << ',' << csvField(advice)
            << ',' << s.median_page_faults << '\n';
    }
    return out.str();
}

std::string comparisonText(const std::vector<ComparedRun>& runs) {
    std::vector<RunRow> rows;
    const RunToRunNoise noise = runToRunNoise(runs);
    for (size_t i = 0; i < runs.size(); ++i) {
        RunRow row = runRowFrom(runs[i].record);
        row.name = runs[i].label;
        row.advice = int(runs[i].advice.size());
        const GainInterval change =
            i == 0 ? GainInterval{}
                   : changeAgainst(runs[0], runs[i], StepMetric::ImagesPerSec, noise);
        row.versus_first =
            i == 0 ? "baseline"
            : change.hasInterval()
                ? formatGainRange(change) + (change.withinNoise() ? " (within noise)" : "")
                : "-";
        rows.push_back(std::move(row));
    }
    return table::toText(runComparisonTable(rows));
}

std::vector<ComparisonFigures> comparisonFigures(const std::vector<ComparedRun>& runs) {
    std::vector<ComparisonFigures> out;
    for (const auto& r : runs) {
        const auto& s = r.record.summary;
        ComparisonFigures f{r.label,          s.median_images_per_sec, s.mean_epoch_time_s,
                            s.peak_rss_bytes, s.peak_device_bytes,     r.accuracy()};
        const LevelInterval level =
            medianInterval(steadyStepValues(r.record, StepMetric::ImagesPerSec));
        if (level.confidence > 0) f.images_per_sec_error = (level.high - level.low) / 2;
        out.push_back(f);
    }
    return out;
}

std::vector<chart::BarChart> comparisonCharts(const std::vector<ComparisonFigures>& runs) {
    using chart::paletteColor;
    auto images = bars(runs, "Throughput (median images/s)", "images/s");
    auto epoch = bars(runs, "Mean epoch time (training part)", "seconds");
    auto memory = bars(runs, "Peak memory", "MiB");
    auto accuracy = bars(runs, "Accuracy", "%");
    chart::BarSeries ips{"images/s", {}, paletteColor(0), {}, {}};
    chart::BarSeries seconds{"epoch s", {}, paletteColor(1), {}, {}};
    chart::BarSeries rss{"host RSS", {}, paletteColor(4), {}, {}};
    chart::BarSeries device{"device", {}, paletteColor(3), {}, {}};
    chart::BarSeries acc{"accuracy", {}, paletteColor(2), {}, {}};
    for (const auto& r : runs) {
        ips.values.push_back(r.images_per_sec > 0 ? r.images_per_sec : kNaN);
        ips.errors.push_back(r.images_per_sec_error);
        seconds.values.push_back(r.epoch_time_s > 0 ? r.epoch_time_s : kNaN);
        rss.values.push_back(mibOf(r.peak_rss_bytes));
        device.values.push_back(mibOf(r.peak_device_bytes));
        acc.values.push_back(r.accuracy * 100);
    }
    images.series = {ips};
    epoch.series = {seconds};
    memory.series = {rss};
    bool any_device = false;
    for (double v : device.values)
        any_device = any_device || std::isfinite(v);
    if (any_device)
        memory.series.push_back(device);
    else
        memory.title = "Peak memory (host resident set)";
    accuracy.series = {acc};
    return {images, epoch, memory, accuracy};
}

void writeComparison(const std::vector<ComparedRun>& runs, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    writeFileAtomically(dir / compare_files::kCsv, comparisonCsv(runs));
    writeFileAtomically(dir / compare_files::kReport, comparisonMarkdown(runs));
    const auto charts = comparisonCharts(comparisonFigures(runs));
    const char* files[] = {compare_files::kImagesPng, compare_files::kEpochPng,
                           compare_files::kMemoryPng, compare_files::kAccuracyPng};
    for (size_t i = 0; i < charts.size(); ++i)
        writeChart(charts[i], dir / files[i]);
}

} // namespace ts
