#pragma once
// The pruning study in a few lines of rich text for the Experiments view's
// title: method, accuracy and latency before → after, overall sparsity, and
// core's verdict on what the sparsity did to speed.
#include <QString>

#include "experiments/PruneStudy.h"

namespace ts::gui {

// "L1 unstructured, per layer, amount 0.3, conv weights"
QString pruneMethodText(const PruneOptions& options);
QString pruneSummaryHtml(const PruneStudyResult& result, const QString& dir);

} // namespace ts::gui
