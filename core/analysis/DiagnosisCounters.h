#pragma once
// The timeline's counter rows from HTA's diagnoses: each stream's queue
// length (the streams that ever queue two launches or more) and the
// bandwidth of each kind of copy, as series the timeline draws by pixel
// column like its memory rows.
#include <string>
#include <vector>

#include "analysis/CounterSeries.h"
#include "analysis/MemoryBandwidth.h"
#include "analysis/QueueLength.h"

namespace ts {

struct ValueRow {
    std::string label; // "Queue, GPU 0 stream 7", "Memcpy HtoD bandwidth"
    std::string unit;  // "queued", "GB/s"
    CounterSeries series;
};

std::vector<ValueRow> diagnosisCounterRows(const QueueLength& queue,
                                           const MemoryBandwidth& bandwidth);

} // namespace ts
