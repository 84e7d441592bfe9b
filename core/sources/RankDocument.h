#pragma once
// A folder of per-rank traces as a document: each span's Distributed view,
// and the first readable span's lowest rank as the trace of the other views
// (its ranks one above the other on the timeline). Also a data-parallel
// run's ranks/ (sources/RunDocument.cpp).
#include <vector>

#include "sources/Document.h"
#include "sources/SourceRegistry.h"
#include "trace/RankFolder.h"

namespace ts::sources {

// A span whose files do not read (one still being written, two claiming a
// rank) or whose ranks form no view (a collective missing on one of them)
// is left out, with the reason in doc.distributed_error; the other spans
// still open.
void loadRankSpans(Document& doc, const std::vector<RankSpan>& spans, const OpenRequest& request);

} // namespace ts::sources
