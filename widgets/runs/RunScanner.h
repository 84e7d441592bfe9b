#pragma once
// Finds run directories under several roots (ts::findRuns on each) and reads
// their summaries; meant to run off the GUI thread.
#include <vector>

#include <QStringList>

#include "runs/RunRow.h"

namespace ts::gui {

// Rows for every run below `roots`, newest first, each directory once.
std::vector<RunRow> scanRuns(const QStringList& roots);

} // namespace ts::gui
