#include "snapshot/SnapshotAnalysis.h"

#include <algorithm>
#include <unordered_map>

namespace ts {
namespace {

bool torchFile(const std::string& file) {
    return file.find("/torch/") != std::string::npos ||
           file.find("site-packages") != std::string::npos ||
           file.find(".cpp") != std::string::npos || file.find(".so") != std::string::npos ||
           file.empty() || file[0] == '?';
}

} // namespace

DeviceMemorySummary summarizeDevice(const MemorySnapshot& s, int device) {
    DeviceMemorySummary d;
    d.device = device;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        ++d.segments;
        d.reserved_bytes += seg.total_size;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state == BlockState::ActiveAllocated) {
                d.allocated_bytes += block.requested_size;
                d.active_bytes += block.size;
            } else if (block.state == BlockState::ActivePendingFree) {
                d.pending_free_bytes += block.size;
            } else {
                d.inactive_bytes += block.size;
            }
        }
    }
    const DeviceHistory& h = deviceHistory(s, device);
    d.entries = s.traceSize(device);
    d.ooms = h.ooms;
    d.before_trace_bytes = h.before_trace_bytes;
    d.peak_allocated_bytes = h.peak_allocated_bytes;
    d.peak_entry = h.peak_entry;
    d.peak_time_us = h.peak_time_us;
    d.peak_reserved_bytes = d.entries ? h.peak_reserved_bytes : d.reserved_bytes;
    return d;
}

std::vector<StackBytes> sortedByBytes(const std::unordered_map<uint32_t, StackBytes>& by_stack) {
    std::vector<StackBytes> out;
    out.reserve(by_stack.size());
    for (const auto& [stack, b] : by_stack)
        out.push_back(b);
    std::sort(out.begin(), out.end(), [](const StackBytes& a, const StackBytes& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.stack < b.stack;
    });
    return out;
}

std::vector<StackBytes> aliveByStack(const std::vector<ActiveBand>& bands, int64_t entry) {
    std::unordered_map<uint32_t, StackBytes> by_stack;
    for (const ActiveBand& b : bands) {
        if (!b.aliveAfter(entry)) continue;
        StackBytes& x = by_stack[b.stack];
        x.stack = b.stack;
        x.bytes += b.size;
        ++x.blocks;
    }
    return sortedByBytes(by_stack);
}

std::vector<StackBytes> aliveAt(const MemorySnapshot& s, int device, int64_t entry) {
    return aliveByStack(deviceHistory(s, device).lifetimes, entry);
}

std::vector<StackBytes> aliveAtSnapshot(const MemorySnapshot& s, int device) {
    std::unordered_map<uint32_t, StackBytes> by_stack;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device) continue;
        for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state != BlockState::ActiveAllocated) continue;
            StackBytes& x = by_stack[block.stack];
            x.stack = block.stack;
            x.bytes += block.requested_size;
            ++x.blocks;
        }
    }
    return sortedByBytes(by_stack);
}

bool viewerShowsFrame(const MemorySnapshot& s, const SnapshotFrame& f) {
    // The unwinder's own frames, the C start-up and the interpreter's call
    // machinery: PyTorch's viewers (_memory_viz.py's _frame_filter,
    // MemoryViz.js) leave them out of every stack they show.
    static const char* const kFunctions[] = {"unwind::unwind",    "CapturedTraceback::gather",
                                             "gather_with_cpp",   "_start",
                                             "__libc_start_main", "PyEval_",
                                             "PyObject_",         "PyFunction_"};
    static const char* const kFiles[] = {"core/boxing",
                                         "/Register",
                                         "/Redispatch",
                                         "pythonrun.c",
                                         "Modules/main.c",
                                         "Objects/call.c",
                                         "Objects/methodobject.c",
                                         "pycore_ceval.h",
                                         "ceval.c",
                                         "cpython/abstract.h"};
    const std::string& name = s.strings[f.name];
    const std::string& file = s.strings[f.filename];
    for (const char* omit : kFunctions)
        if (name.find(omit) != std::string::npos) return false;
    for (const char* omit : kFiles)
        if (file.find(omit) != std::string::npos) return false;
    return true;
}

std::string stackText(const MemorySnapshot& s, uint32_t stack) {
    const size_t n = s.stackSize(stack);
    if (n == 0) return "<no frames>";
    std::string out;
    for (size_t i = n; i-- > 0;) {
        const SnapshotFrame& f = s.frameOf(stack, i);
        if (viewerShowsFrame(s, f)) out += (out.empty() ? "" : ";") + s.frameText(f);
    }
    // Every frame is one the viewer hides (found by fuzz_memory_snapshot): a
    // row still needs a name.
    return out.empty() ? "<no frames shown>" : out;
}

std::string userFrame(const MemorySnapshot& s, uint32_t stack) {
    const size_t n = s.stackSize(stack);
    if (n == 0) return "";
    for (size_t i = 0; i < n; ++i)
        if (!torchFile(s.strings[s.frameOf(stack, i).filename]))
            return s.frameText(s.frameOf(stack, i));
    return s.frameText(s.frameOf(stack, 0));
}

const MemoryCurve& memoryCurve(const MemorySnapshot& s, int device) {
    return deviceCurve(s, device);
}

} // namespace ts
