#pragma once
// One run directory as the Runs view lists and compares it: the core's row
// (report/RunTables.h), which the CLI's `compare` prints too.
#include <QString>

#include "report/RunTables.h"

namespace ts::gui {

// Reads dir/run.json; unreadable runs come back with status "unreadable" and the error.
RunRow readRunRow(const QString& dir);

} // namespace ts::gui
