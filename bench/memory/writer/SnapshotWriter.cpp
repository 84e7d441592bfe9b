#include "SnapshotWriter.h"

#include "PickleWriter.h"
#include "SnapshotLayout.h"

namespace ts::snapgen {
namespace {

// A device's trace entries straight into the file, those the ring buffer
// kept only.
class TraceSink final : public EventSink {
public:
    TraceSink(SnapshotLayout& layout, PickleWriter& w, uint64_t length, uint64_t keep_from)
        : layout_(layout), items_(w, length, false), keep_from_(keep_from) {}
    void entry(const Entry& e, uint64_t index) override {
        if (index < keep_from_) return;
        items_.before();
        layout_.entry(e);
        items_.after();
    }

private:
    SnapshotLayout& layout_;
    ItemBatches items_;
    uint64_t keep_from_;
};

} // namespace

WrittenSnapshot writeSnapshot(const SnapshotSpec& spec, std::FILE* out) {
    PythonRandom rng(spec.seed);
    SnapshotLayout layout(rng);
    const uint64_t keep_from = spec.entries / 10;
    const PythonRandom history = rng; // where the devices' draws begin

    // Pass 1: the dump's segments (written first) and each trace's length.
    WrittenSnapshot written;
    std::vector<std::vector<ToySegment>> segments;
    std::vector<uint64_t> lengths;
    uint64_t segment_count = 0;
    for (int d = 0; d < spec.devices; ++d) {
        ToyAllocator a(rng, layout.stackCount(), d, spec.entries, keep_from, nullptr,
                       spec.max_live);
        a.run();
        segments.push_back(a.takeSegments());
        segment_count += segments.back().size();
        lengths.push_back(a.traceLength());
        written.devices.push_back(a.totals());
    }

    PickleWriter w(out, spec.protocol);
    layout.start(w);
    w.begin();
    w.emptyDict();
    w.memoize();
    ItemBatches top(w, 4, true);
    top.before(), layout.text(kSegments);
    w.emptyList();
    w.memoize();
    ItemBatches all(w, segment_count, false);
    for (int d = 0; d < spec.devices; ++d) {
        for (const ToySegment& s : segments[size_t(d)])
            all.before(), layout.segment(s, d), all.after();
        segments[size_t(d)] = {}; // written: its memory goes
    }
    top.after();

    // Pass 2: the same history again, each device's entries as they happen.
    top.before(), layout.text(kDeviceTraces);
    w.emptyList();
    w.memoize();
    ItemBatches devices(w, uint64_t(spec.devices), false);
    rng = history;
    for (int d = 0; d < spec.devices; ++d) {
        devices.before();
        w.emptyList();
        w.memoize();
        TraceSink sink(layout, w, lengths[size_t(d)], keep_from);
        ToyAllocator a(rng, layout.stackCount(), d, spec.entries, keep_from, &sink, spec.max_live);
        a.run();
        devices.after();
    }
    top.after();

    top.before(), layout.text(kAllocatorSettings), layout.allocatorSettings(), top.after();
    top.before(), layout.text(kExternalAnnotations);
    w.emptyList();
    w.memoize();
    top.after();
    w.end();
    written.bytes = w.bytesWritten();
    return written;
}

uint64_t entriesForBytes(const SnapshotSpec& spec, uint64_t bytes) {
    SnapshotSpec probe = spec;
    probe.entries = 200000;
    const WrittenSnapshot small = writeSnapshot(probe, nullptr);
    const double per_entry = double(small.bytes) / double(probe.entries * uint64_t(spec.devices));
    return std::max<uint64_t>(100, uint64_t(double(bytes) / per_entry / spec.devices));
}

} // namespace ts::snapgen
