#pragma once
// Run directories as rows, and their two tables described once
// (report/TableSpec.h): the run list (the GUI's Runs view) and the comparison
// (`compare` and the Runs view's selected runs). Keys are comparison.csv's
// column names where it has the figure; titles are the CLI's.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "report/RunDirectory.h"
#include "report/TableSpec.h"

namespace ts {

// One run directory as the run list and the comparison show it.
struct RunRow {
    std::string dir;
    std::string name;
    int64_t modified_s = 0; // run.json's last write, seconds since the epoch; 0 = unknown
    std::string status;     // running / completed / cancelled / failed / unreadable
    std::string error;      // why unreadable or failed
    std::string model, dataset, device, precision;
    std::string libtorch; // which LibTorch (or the script's torch) ran it: "2.15.0 (CUDA 13.0)"
    int batch_size = 0;
    int threads = 0;
    int epochs = 0; // completed
    int64_t steps = 0;
    double images_per_sec = std::numeric_limits<double>::quiet_NaN(); // steady-state median
    double step_ms = std::numeric_limits<double>::quiet_NaN();
    double epoch_time_s = std::numeric_limits<double>::quiet_NaN(); // mean
    double total_time_s = std::numeric_limits<double>::quiet_NaN();
    int64_t peak_rss_bytes = 0;
    int64_t peak_tensor_bytes = 0;
    int64_t peak_device_bytes = 0;
    double train_accuracy = std::numeric_limits<double>::quiet_NaN(); // final, 0..1
    double val_accuracy = std::numeric_limits<double>::quiet_NaN();   // best, 0..1
    // Best validation accuracy, else the last, else training accuracy (ComparedRun::accuracy).
    double accuracy = std::numeric_limits<double>::quiet_NaN();
    bool has_trace = false;
    // What `compare` knows from the steps and the advice: images/s against
    // the first run with its interval ("baseline" for that one), the number
    // of advice items (-1: not asked). Empty columns when nobody has them.
    std::string versus_first;
    int advice = -1;
};

RunRow runRowFrom(const RunRecord& record);

// Which LibTorch a run's environment names, as the run list and the Live
// view's run summary show it: "2.15.0 (CUDA 13.2)", "1.13.0", "" unknown.
std::string libTorchText(const EnvironmentInfo& env);

namespace run_column {
inline constexpr const char* kName = "label";
inline constexpr const char* kModified = "modified";
inline constexpr const char* kImagesPerSec = "images_per_sec";
inline constexpr const char* kEpochTime = "mean_epoch_time_s";
inline constexpr const char* kValAccuracy = "best_val_accuracy";
inline constexpr const char* kDirectory = "run_dir";
} // namespace run_column

// Every run found: what it is, how it ended and its headline figures.
table::TableSpec runListTable(const std::vector<RunRow>& rows);
// Runs side by side, the first the baseline of the speed-up; without the
// optional columns (interval, advice, device and tensor memory) nobody fills.
table::TableSpec runComparisonTable(const std::vector<RunRow>& rows);

} // namespace ts
