#include "report/RunTables.h"

#include <cmath>
#include <ctime>

#include "report/MarkdownTable.h"

namespace ts {
namespace {

using table::Cell;
using table::Column;
using table::ColumnKind;

double known(double v) {
    return v > 0 ? v : std::numeric_limits<double>::quiet_NaN();
}

// "-" and no value where nothing was measured, as the CLI prints it.
Cell orDash(double v, const std::string& text) {
    return std::isnan(v) ? table::textCell("-") : table::numberCell(text, v);
}

Cell mibCell(int64_t bytes) {
    return bytes > 0 ? table::numberCell(mib(bytes), double(bytes)) : table::textCell("-");
}

Cell shareCell(double fraction) {
    return orDash(fraction, percent(fraction));
}

Column text(const char* key, const char* title, const char* tooltip = "") {
    return Column{key, title, tooltip};
}

Column count(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Integer};
}

Column number(const char* key, const char* title, const char* tooltip,
              table::ColumnUnit unit = table::ColumnUnit::None) {
    return Column{key, title, tooltip, ColumnKind::Number, false, unit};
}

Column mibColumn(const char* key, const char* title, const char* tooltip, bool optional = false) {
    return Column{key, title, tooltip, ColumnKind::Integer, optional, table::ColumnUnit::Bytes};
}

// Local time, minutes: when the run last wrote its record.
Cell modifiedCell(int64_t seconds) {
    if (seconds <= 0) return table::textCell("");
    const std::time_t t = std::time_t(seconds);
    std::tm local{};
    localtime_r(&t, &local);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M", &local);
    return table::numberCell(text, double(seconds));
}

} // namespace

std::string libTorchText(const EnvironmentInfo& env) {
    if (env.torch_version.empty() || env.cuda_version.empty()) return env.torch_version;
    return env.torch_version + " (CUDA " + env.cuda_version + ")";
}

RunRow runRowFrom(const RunRecord& r) {
    RunRow row;
    const ExperimentConfig& c = r.info.config;
    const RunSummary& s = r.summary;
    row.dir = r.dir.string();
    row.name = c.name;
    row.status = toString(s.status);
    row.error = s.error;
    row.model = c.model;
    row.dataset = c.dataset;
    row.device = c.device;
    row.precision = c.precision;
    row.libtorch = libTorchText(r.info.env);
    row.batch_size = c.batch_size;
    row.threads = r.info.env.intra_op_threads;
    row.epochs = s.epochs_completed;
    row.steps = s.steps_completed;
    row.images_per_sec = known(s.median_images_per_sec);
    row.step_ms = known(s.median_step_ms);
    row.epoch_time_s = known(s.mean_epoch_time_s);
    row.total_time_s = known(s.total_time_s);
    row.peak_rss_bytes = s.peak_rss_bytes;
    row.peak_tensor_bytes = s.peak_tensor_bytes;
    row.peak_device_bytes = s.peak_device_bytes;
    row.train_accuracy = s.final_train_accuracy;
    row.val_accuracy = s.best_val_accuracy;
    row.accuracy = !std::isnan(s.best_val_accuracy)    ? s.best_val_accuracy
                   : !std::isnan(s.final_val_accuracy) ? s.final_val_accuracy
                                                       : s.final_train_accuracy;
    row.has_trace = r.hasTrace();
    return row;
}

table::TableSpec runListTable(const std::vector<RunRow>& rows) {
    table::TableSpec spec;
    spec.title = "Runs";
    spec.columns = {
        text(run_column::kName, "run", "Experiment name"),
        text("status", "status", "How the run ended"),
        number(run_column::kModified, "modified", "Last write of run.json"),
        text("model", "model"),
        text("dataset", "dataset"),
        text("device", "device"),
        text("precision", "precision"),
        text("libtorch", "LibTorch", "The LibTorch that trained it (a script's: its torch)"),
        count("batch_size", "batch", "Batch size"),
        count("epochs", "epochs", "Epochs completed"),
        count("steps", "steps", "Training steps completed"),
        number(run_column::kImagesPerSec, "images/s", "Steady-state median throughput"),
        number(run_column::kEpochTime, "epoch s", "Mean training time per epoch"),
        mibColumn("peak_rss_bytes", "peak RSS MiB", "Process resident memory"),
        number(run_column::kValAccuracy, "val accuracy", "Best validation accuracy"),
        Column{"trace", "trace", "The run has a profiler trace", ColumnKind::YesNo},
        text(run_column::kDirectory, "directory"),
    };
    for (const RunRow& r : rows)
        spec.rows.push_back(
            {table::textCell(r.name), table::textCell(r.status), modifiedCell(r.modified_s),
             table::textCell(r.model), table::textCell(r.dataset), table::textCell(r.device),
             table::textCell(r.precision), table::textCell(r.libtorch),
             table::integerCell(r.batch_size), table::integerCell(r.epochs),
             table::integerCell(r.steps), orDash(r.images_per_sec, fixed(r.images_per_sec, 1)),
             orDash(r.epoch_time_s, fixed(r.epoch_time_s, 2)), mibCell(r.peak_rss_bytes),
             shareCell(r.val_accuracy), Cell{r.has_trace ? "yes" : "", r.has_trace ? 1.0 : 0.0},
             table::textCell(r.dir)});
    return spec;
}

namespace {

std::vector<Column> comparisonColumns() {
    return {
        text(run_column::kName, "run", "Experiment name"),
        text("device", "device"),
        text("precision", "precision"),
        count("batch_size", "batch", "Batch size"),
        number(run_column::kImagesPerSec, "images/s", "Steady-state median throughput"),
        number("speedup", "speed-up", "images/s over the first run's"),
        Column{"images_per_sec_interval", "images/s interval",
               "images/s against the first run, paired by step, with its interval",
               ColumnKind::Text, true},
        number("median_step_ms", "step ms", "Steady-state median step time",
               table::ColumnUnit::Milliseconds),
        number(run_column::kEpochTime, "epoch s", "Mean training time per epoch"),
        number("total_time_s", "total s", "Wall time of the whole run"),
        mibColumn("peak_memory_bytes", "peak MiB",
                  "Peak device memory on CUDA runs, else peak resident set"),
        mibColumn("peak_rss_bytes", "peak RSS MiB", "Process resident memory"),
        mibColumn("peak_tensor_bytes", "peak tensors MiB", "Live CPU tensor bytes", true),
        mibColumn("peak_device_bytes", "peak device MiB", "CUDA allocator peak", true),
        number("accuracy", "accuracy",
               "Best validation accuracy, else the last, else training accuracy"),
        number("final_train_accuracy", "train accuracy", "Final training accuracy"),
        Column{"advice", "advice", "Advice items for the run", ColumnKind::Integer, true},
        text("model", "model"),
        Column{"libtorch", "LibTorch", "The LibTorch that trained it (a script's: its torch)",
               ColumnKind::Text, true},
        count("threads", "threads", "Intra-op threads used"),
    };
}

std::vector<Cell> comparisonCells(const RunRow& r, double base) {
    const int64_t peak = r.peak_device_bytes > 0 ? r.peak_device_bytes : r.peak_rss_bytes;
    const double ratio = base > 0 ? r.images_per_sec / base : std::nan("");
    return {table::textCell(r.name),
            table::textCell(r.device),
            table::textCell(r.precision),
            table::integerCell(r.batch_size),
            orDash(r.images_per_sec, fixed(r.images_per_sec, 1)),
            orDash(ratio, speedup(ratio)),
            table::textCell(r.versus_first),
            orDash(r.step_ms, fixed(r.step_ms, 2)),
            orDash(r.epoch_time_s, fixed(r.epoch_time_s, 2)),
            orDash(r.total_time_s, fixed(r.total_time_s, 1)),
            mibCell(peak),
            mibCell(r.peak_rss_bytes),
            r.peak_tensor_bytes > 0 ? mibCell(r.peak_tensor_bytes) : Cell{},
            r.peak_device_bytes > 0 ? mibCell(r.peak_device_bytes) : Cell{},
            shareCell(r.accuracy),
            shareCell(r.train_accuracy),
            r.advice >= 0 ? table::integerCell(r.advice) : Cell{},
            table::textCell(r.model),
            r.libtorch.empty() ? Cell{} : table::textCell(r.libtorch),
            table::integerCell(r.threads)};
}

} // namespace

table::TableSpec runComparisonTable(const std::vector<RunRow>& rows) {
    table::TableSpec spec;
    spec.title = "Runs compared";
    spec.columns = comparisonColumns();
    const double base = rows.empty() ? 0 : rows.front().images_per_sec;
    for (const RunRow& r : rows)
        spec.rows.push_back(comparisonCells(r, base));
    return table::shown(spec);
}

} // namespace ts
