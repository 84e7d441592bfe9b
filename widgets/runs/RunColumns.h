#pragma once
// Column definitions for run rows, shared by the run list and the comparison
// table (each picks the columns it shows).
#include "common/TableModel.h"
#include "runs/RunRow.h"

namespace ts::gui::run_columns {

using Column = TableColumn<RunRow>;

Column name();
Column status();
Column modified();
Column model();
Column dataset();
Column device();
Column precision();
Column batchSize();
Column threads();
Column epochs();
Column steps();
Column imagesPerSec();
Column stepTime();
Column epochTime();
Column totalTime();
Column peakRss();
Column peakTensors();
Column peakDevice();
Column trainAccuracy();
Column valAccuracy();
Column hasTrace();
Column directory();

} // namespace ts::gui::run_columns
