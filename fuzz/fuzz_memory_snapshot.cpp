// The allocator snapshot reader (snapshot/SnapshotReader.h): any bytes give
// a snapshot whose records refer only to what it holds (stacks to frames,
// frames to strings, segments to blocks, traces to events), or a
// SnapshotError; the analyses of what it gives run without fault.
//
// Input: the pickle's bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "snapshot/SnapshotAnalysis.h"
#include "snapshot/SnapshotReader.h"

namespace {

void check(bool ok) {
    if (!ok) __builtin_trap();
}

void checkSound(const ts::MemorySnapshot& s) {
    for (const ts::SnapshotFrame& f : s.frames)
        check(f.name < s.strings.size() && f.filename < s.strings.size());
    check(s.stack_begin.size() >= 2 && s.stack_begin.back() == s.stack_frames.size());
    for (uint32_t f : s.stack_frames)
        check(f < s.frames.size());
    for (const ts::SnapshotSegment& seg : s.segments)
        check(size_t(seg.first_block) + seg.block_count <= s.blocks.size());
    for (const ts::SnapshotBlock& b : s.blocks)
        check(b.stack < s.stackCount());
    check(s.trace_begin.back() == s.events.size());
    check(!s.streams.empty());
    for (const ts::AllocEvent& e : s.events)
        check(e.stack < s.stackCount() && e.stream_id < s.streams.size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const ts::MemorySnapshot s = ts::parseMemorySnapshot(bytes, "fuzz.pickle");
        checkSound(s);
        for (int d = 0; d < s.devices() && d < 8; ++d) {
            const ts::DeviceMemorySummary summary = ts::summarizeDevice(s, d);
            for (const ts::StackBytes& b : ts::aliveAt(s, d, summary.peak_entry))
                check(!ts::stackText(s, b.stack).empty());
            (void)ts::memoryCurve(s, d);
        }
    } catch (const ts::SnapshotError&) {
    }
    return 0;
}
