#include "analysis/DiagnosisCounters.h"

namespace ts {

std::vector<ValueRow> diagnosisCounterRows(const QueueLength& queue,
                                           const MemoryBandwidth& bandwidth) {
    std::vector<ValueRow> rows;
    for (const StreamQueue& s : queue.streams) {
        // A stream that never holds two launches tells nothing a row would show.
        if (s.stats.max < 2) continue;
        ValueRow row{"Queue, GPU " + std::to_string(s.gpu) + " stream " + std::to_string(s.stream),
                     "queued",
                     {}};
        row.series.reserve(s.series.size());
        for (const QueuePoint& p : s.series)
            row.series.add(p.t, double(p.length));
        row.series.finish();
        rows.push_back(std::move(row));
    }
    for (const MemoryKindBandwidth& k : bandwidth.kinds) {
        ValueRow row{k.kind + " bandwidth", "GB/s", {}};
        row.series.reserve(k.series.size());
        for (const BandwidthPoint& p : k.series)
            row.series.add(p.t, p.gbps);
        row.series.finish();
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace ts
