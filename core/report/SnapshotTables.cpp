#include "report/SnapshotTables.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"
#include "snapshot/AllocatorState.h"
#include "snapshot/MemoryFlame.h"
#include "util/NumberText.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, …

Column bytesColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Integer, false, ColumnUnit::Bytes};
}
Column intColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Integer};
}
Cell hexCell(int64_t v) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
    return numberCell(text, double(v));
}

// The devices of a snapshot, those with segments or a trace.
std::vector<DeviceMemorySummary> summaries(const MemorySnapshot& s) {
    std::vector<DeviceMemorySummary> out;
    for (int d = 0; d < s.devices(); ++d)
        out.push_back(summarizeDevice(s, d));
    return out;
}

} // namespace

std::string noHistoryHint() {
    return "The snapshot has no device_traces: its allocation history was not recorded, so it "
           "holds the segments at the moment of the dump only (no timeline, no peak over time, "
           "no OOMs). Record it with torch.cuda.memory._record_memory_history(max_entries="
           "100000) before the steps to look at, then torch.cuda.memory._dump_snapshot("
           "\"snapshot.pickle\").";
}

TableSpec snapshotSummaryTable(const MemorySnapshot& s) {
    TableSpec spec;
    spec.title = "Devices";
    spec.columns = {
        intColumn("device", "Device", "CUDA device"),
        intColumn("segments", "Segments", "cudaMalloc'd segments at the snapshot"),
        bytesColumn("reserved_bytes", "Reserved", "The segments' size"),
        bytesColumn("allocated_bytes", "Allocated",
                    "Bytes the program asked for, of blocks alive at the snapshot"),
        bytesColumn("pending_free_bytes", "Pending Free",
                    "Freed but waiting on another stream (record_stream)"),
        bytesColumn("inactive_bytes", "Cached Free", "Reserved, not allocated"),
        intColumn("entries", "Trace Entries", "device_traces entries"),
        bytesColumn("peak_allocated_bytes", "Peak Allocated",
                    "The Active Memory Timeline's peak over the trace"),
        intColumn("peak_entry", "At Entry", "The trace entry of that peak (-1: before)"),
        bytesColumn("peak_reserved_bytes", "Peak Reserved", "Over the trace"),
        intColumn("ooms", "OOMs", "Allocations that failed")};
    for (const DeviceMemorySummary& d : summaries(s))
        spec.rows.push_back({integerCell(d.device), integerCell(int64_t(d.segments)),
                             integerCell(d.reserved_bytes), integerCell(d.allocated_bytes),
                             integerCell(d.pending_free_bytes), integerCell(d.inactive_bytes),
                             integerCell(int64_t(d.entries)), integerCell(d.peak_allocated_bytes),
                             integerCell(d.peak_entry), integerCell(d.peak_reserved_bytes),
                             integerCell(int64_t(d.ooms))});
    return spec;
}

int64_t snapshotPeakEntry(const MemorySnapshot& s, int device, const SnapshotFilter& filter) {
    return filter.empty() ? summarizeDevice(s, device).peak_entry
                          : filterAllocations(s, device, filter).peak_entry;
}

TableSpec snapshotPeakTable(const MemorySnapshot& s, int device, const SnapshotFilter& filter) {
    return snapshotAliveTable(s, device, snapshotPeakEntry(s, device, filter), filter);
}

std::vector<StackBytes> snapshotAlive(const MemorySnapshot& s, int device, int64_t entry,
                                      const SnapshotFilter& filter) {
    // Without a filter, by PyTorch's rules straight from the trace (checked
    // against the viewers' figures); with one, from the kept lifetimes (the
    // same figures without: a test checks it).
    if (filter.empty()) return aliveAt(s, device, entry);
    return aliveAfter(filterAllocations(s, device, filter), entry);
}

AliveGrouping aliveGroupingFrom(const std::string& text) {
    if (text == "stack") return AliveGrouping::Stack;
    if (text == "frame") return AliveGrouping::UserFrame;
    if (text == "size") return AliveGrouping::Size;
    throw std::invalid_argument("Option --group is '" + text + "'; expected stack, frame or size.");
}

namespace {

// One row of the alive table: what a group holds.
struct AliveGroup {
    int64_t bytes = 0, blocks = 0, size = 0;
    size_t stacks = 0;
    uint32_t largest_stack = 0; // the stack with most bytes in the group
    int64_t largest = -1;
};

// `alive` (by stack) regrouped by user frame or by allocation size; most bytes first.
std::vector<std::pair<std::string, AliveGroup>> aliveGroups(const MemorySnapshot& s, int device,
                                                            int64_t entry,
                                                            const SnapshotFilter& filter,
                                                            AliveGrouping grouping) {
    std::map<std::string, AliveGroup> groups;
    auto add = [&](const std::string& key, uint32_t stack, int64_t bytes, int64_t blocks,
                   int64_t size) {
        AliveGroup& g = groups[key];
        g.bytes += bytes;
        g.blocks += blocks;
        g.size = size;
        ++g.stacks;
        if (bytes > g.largest) {
            g.largest = bytes;
            g.largest_stack = stack;
        }
    };
    if (grouping == AliveGrouping::Size) { // per allocation, not per stack
        FilteredAllocations f = filterAllocations(s, device, filter);
        for (const ActiveBand& b : f.bands)
            if (b.aliveAfter(entry)) add(std::to_string(b.size), b.stack, b.size, 1, b.size);
    } else {
        for (const StackBytes& b : snapshotAlive(s, device, entry, filter))
            add(grouping == AliveGrouping::Stack ? stackText(s, b.stack) : userFrame(s, b.stack),
                b.stack, b.bytes, b.blocks, 0);
    }
    std::vector<std::pair<std::string, AliveGroup>> out(groups.begin(), groups.end());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second.bytes > b.second.bytes; });
    return out;
}

const char* groupingWords(AliveGrouping g) {
    return g == AliveGrouping::Stack  ? "by stack"
           : g == AliveGrouping::Size ? "by allocation size"
                                      : "by user frame";
}

} // namespace

TableSpec snapshotAliveTable(const MemorySnapshot& s, int device, int64_t entry,
                             const SnapshotFilter& filter, AliveGrouping grouping) {
    const auto groups = aliveGroups(s, device, entry, filter, grouping);
    int64_t total = 0;
    for (const auto& [key, g] : groups)
        total += g.bytes;
    TableSpec spec;
    spec.title =
        "Alive " +
        (entry == snapshotPeakEntry(s, device, filter) ? std::string("at the peak")
                                                       : "after entry " + std::to_string(entry)) +
        " of device " + std::to_string(device) + " (" + std::to_string(total) + " bytes, entry " +
        std::to_string(entry) + "), " + groupingWords(grouping) +
        (filter.empty() ? "" : "; " + filter.describe());
    spec.columns = {bytesColumn("bytes", "Bytes", "Alive then in this group"),
                    diagnosis::percentColumn("pct", "Share (%)", "Of what was alive then"),
                    intColumn("blocks", "Blocks", "Allocations")};
    if (grouping == AliveGrouping::Size)
        spec.columns.push_back(bytesColumn("size", "Size", "Of each allocation"));
    if (grouping != AliveGrouping::Stack)
        spec.columns.push_back(intColumn("stacks", "Stacks", "Distinct stacks in the group"));
    spec.columns.push_back(Column{"frame", "User Frame",
                                  grouping == AliveGrouping::UserFrame
                                      ? "The innermost frame outside PyTorch"
                                      : "The innermost frame outside PyTorch (of the largest)"});
    spec.columns.push_back(Column{"stack", "Stack",
                                  grouping == AliveGrouping::Stack
                                      ? "Outermost frame first (file:line:function)"
                                      : "The group's largest stack, outermost frame first"});
    for (const auto& [key, g] : groups) {
        const double pct = total ? 100.0 * double(g.bytes) / double(total) : 0;
        std::vector<Cell> row{integerCell(g.bytes), diagnosis::percentCell(pct),
                              integerCell(g.blocks)};
        if (grouping == AliveGrouping::Size) row.push_back(integerCell(g.size));
        if (grouping != AliveGrouping::Stack) row.push_back(integerCell(int64_t(g.stacks)));
        row.push_back(textCell(userFrame(s, g.largest_stack)));
        row.push_back(textCell(stackText(s, g.largest_stack)));
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

TableSpec snapshotDumpTable(const MemorySnapshot& s, int device) {
    const std::vector<StackBytes> alive = aliveAtSnapshot(s, device);
    int64_t total = 0;
    for (const StackBytes& b : alive)
        total += b.bytes;
    TableSpec spec;
    spec.title = "Allocated at the dump on device " + std::to_string(device) + " (" +
                 std::to_string(total) + " bytes requested, in the segments' blocks), by stack";
    spec.columns = {bytesColumn("bytes", "Bytes", "Requested bytes of active_allocated blocks"),
                    diagnosis::percentColumn("pct", "Share (%)", "Of what was allocated"),
                    intColumn("blocks", "Blocks", "Allocations"),
                    Column{"frame", "User Frame", "The innermost frame outside PyTorch"},
                    Column{"stack", "Stack", "Outermost frame first (file:line:function)"}};
    for (const StackBytes& b : alive)
        spec.rows.push_back(
            {integerCell(b.bytes),
             diagnosis::percentCell(total ? 100.0 * double(b.bytes) / double(total) : 0),
             integerCell(b.blocks), textCell(userFrame(s, b.stack)),
             textCell(stackText(s, b.stack))});
    return spec;
}

TableSpec snapshotFlameTable(const MemorySnapshot& s, int device, int64_t entry,
                             const SnapshotFilter& filter, size_t rows) {
    const MemoryFlame flame = memoryFlame(s, snapshotAlive(s, device, entry, filter));
    TableSpec spec;
    spec.title = "Flame graph of what was alive after entry " + std::to_string(entry) +
                 " of device " + std::to_string(device) + " (" + std::to_string(flame.total()) +
                 " bytes), outermost frame first" +
                 (filter.empty() ? "" : "; " + filter.describe());
    spec.columns = {intColumn("depth", "Depth", "0: everything; 1: the outermost frames"),
                    Column{"frame", "Frame", "file:line:function, indented by depth"},
                    bytesColumn("bytes", "Bytes", "Alive under this frame"),
                    diagnosis::percentColumn("pct", "Share (%)", "Of what was alive then"),
                    bytesColumn("self_bytes", "Self", "Allocated with this frame the innermost"),
                    intColumn("blocks", "Blocks", "Allocations under it")};
    // The widest nodes, kept in tree order: a node's parent is always wider.
    std::vector<size_t> order(flame.nodes.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (rows && rows < order.size()) {
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return flame.nodes[a].bytes > flame.nodes[b].bytes;
        });
        order.resize(rows);
        std::sort(order.begin(), order.end());
    }
    const double total = double(flame.total());
    for (size_t i : order) {
        const FlameNode& n = flame.nodes[i];
        spec.rows.push_back(
            {integerCell(n.depth), textCell(std::string(size_t(2 * n.depth), ' ') + n.frame),
             integerCell(n.bytes),
             diagnosis::percentCell(total > 0 ? 100.0 * double(n.bytes) / total : 0),
             integerCell(n.self), integerCell(n.blocks)});
    }
    return spec;
}

TableSpec snapshotSegmentTable(const MemorySnapshot& s) {
    TableSpec spec;
    spec.title = "Segments";
    spec.columns = {intColumn("device", "Device", ""),
                    Column{"address", "Address", "", ColumnKind::Number},
                    bytesColumn("total_size", "Size", ""),
                    bytesColumn("allocated_size", "Allocated", "Blocks handed out"),
                    bytesColumn("requested_size", "Requested", "What the program asked for"),
                    intColumn("blocks", "Blocks", ""),
                    Column{"type", "Pool", "large or small"},
                    Column{"stream", "Stream", "", ColumnKind::Number},
                    Column{"frame", "Allocated At", "The user frame that made the segment"}};
    for (const SnapshotSegment& seg : s.segments)
        spec.rows.push_back({integerCell(seg.device), hexCell(seg.address),
                             integerCell(seg.total_size), integerCell(seg.allocated_size),
                             integerCell(seg.requested_size), integerCell(seg.block_count),
                             textCell(seg.large ? "large" : "small"), hexCell(seg.stream),
                             textCell(userFrame(s, seg.stack))});
    return spec;
}

TableSpec snapshotStateTable(const MemorySnapshot& s, int device, int64_t entry) {
    return snapshotStateTable(allocatorStateAt(s, device, entry), device);
}

TableSpec snapshotStateTable(const AllocatorState& st, int device) {
    const int64_t entry = st.entry;
    TableSpec spec;
    spec.title = "Allocator state of device " + std::to_string(device) + " after entry " +
                 std::to_string(entry) + ": " + std::to_string(st.segments.size()) + " segments, " +
                 std::to_string(st.reserved_bytes) + " bytes reserved, " +
                 std::to_string(st.allocated_bytes) + " in " + std::to_string(st.blocks) +
                 " blocks";
    spec.columns = {Column{"address", "Address", "", ColumnKind::Number},
                    bytesColumn("size", "Size", "The segment"),
                    bytesColumn("allocated", "In Blocks", "Its blocks then (pending frees too)"),
                    bytesColumn("free", "Free", "Cached in it then"),
                    intColumn("blocks", "Blocks", ""),
                    intColumn("pending", "Pending Free", "Blocks freed, the free not completed"),
                    Column{"stream", "Stream", "", ColumnKind::Number}};
    for (const StateSegment& seg : st.segments) {
        int64_t pending = 0;
        for (const StateBlock& b : seg.blocks)
            pending += b.pending_free ? 1 : 0;
        spec.rows.push_back({hexCell(seg.address), integerCell(seg.size),
                             integerCell(seg.allocated()), integerCell(seg.size - seg.allocated()),
                             integerCell(int64_t(seg.blocks.size())), integerCell(pending),
                             hexCell(seg.stream)});
    }
    return spec;
}

TableSpec snapshotTimelineTable(const MemorySnapshot& s, int device, size_t points,
                                const SnapshotFilter& filter) {
    const MemoryCurve& c = memoryCurve(s, device);
    const std::vector<int64_t>* allocated = &c.allocated;
    size_t from = 0, to = c.allocated.size();
    FilteredAllocations f;
    if (!filter.empty()) { // what the filter keeps, over its range
        f = filterAllocations(s, device, filter);
        allocated = &f.allocated;
        from = size_t(f.first);
        to = size_t(f.last + 1);
    }
    TableSpec spec;
    spec.title = "Device " + std::to_string(device) + " over its trace" +
                 (filter.empty() ? "" : "; allocated: " + filter.describe());
    spec.columns = {intColumn("entry", "Entry", "Trace entry (the timeline's time)"),
                    intColumn("time_us", "Time (us)", "Its time_us"),
                    bytesColumn("allocated_bytes", "Allocated", "Alive after it"),
                    bytesColumn("reserved_bytes", "Reserved", "After it")};
    const size_t n = to - from;
    const size_t stride = std::max<size_t>(1, points ? (n + points - 1) / points : 1);
    const AllocEvent* events = s.traceBegin(device);
    for (size_t first = from; first < to; first += stride) {
        size_t best = first; // each stretch by its largest allocated value
        for (size_t i = first; i < std::min(to, first + stride); ++i)
            if ((*allocated)[i] > (*allocated)[best]) best = i;
        spec.rows.push_back({integerCell(int64_t(best)), integerCell(events[best].time_us),
                             integerCell((*allocated)[best]), integerCell(c.reserved[best])});
    }
    return spec;
}

chart::XyChart snapshotCurveChart(const MemorySnapshot& s, int device, size_t points,
                                  const SnapshotFilter& filter) {
    const TableSpec table = snapshotTimelineTable(s, device, points, filter);
    chart::XyChart c;
    c.title = "Device " + std::to_string(device) + ": allocated and reserved over the trace";
    c.x_label = "trace entry";
    c.y_label = "GB";
    chart::XySeries allocated, reserved;
    allocated.name = "allocated";
    reserved.name = "reserved";
    allocated.color = chart::paletteColor(0);
    reserved.color = chart::paletteColor(1);
    allocated.markers = reserved.markers = false;
    reserved.dashed = true;
    for (const auto& row : table.rows) {
        allocated.xs.push_back(row[0].value);
        reserved.xs.push_back(row[0].value);
        allocated.ys.push_back(row[2].value / 1e9);
        reserved.ys.push_back(row[3].value / 1e9);
    }
    c.series = {allocated, reserved};
    return c;
}

TableSpec snapshotOomTable(const MemorySnapshot& s) {
    TableSpec spec;
    spec.title = "Out-of-memory events";
    spec.columns = {intColumn("device", "Device", ""),
                    intColumn("entry", "Entry", ""),
                    intColumn("time_us", "Time (us)", ""),
                    bytesColumn("requested_bytes", "Requested", "The allocation that failed"),
                    bytesColumn("device_free_bytes", "Device Free", "What CUDA reported free"),
                    bytesColumn("allocated_bytes", "Allocated", "Alive then"),
                    bytesColumn("reserved_bytes", "Reserved", "Reserved then"),
                    Column{"frame", "User Frame", ""}};
    for (int d = 0; d < int(s.traceDevices()); ++d) {
        const AllocEvent* events = s.traceBegin(d);
        const size_t n = s.traceSize(d);
        bool any = false;
        for (size_t i = 0; i < n && !any; ++i)
            any = events[i].action == AllocAction::Oom;
        if (!any) continue;
        const MemoryCurve& c = memoryCurve(s, d);
        for (size_t i = 0; i < n; ++i)
            if (events[i].action == AllocAction::Oom)
                spec.rows.push_back({integerCell(d), integerCell(int64_t(i)),
                                     integerCell(events[i].time_us), integerCell(events[i].size),
                                     integerCell(events[i].addr), integerCell(c.allocated[i]),
                                     integerCell(c.reserved[i]),
                                     textCell(userFrame(s, events[i].stack))});
    }
    return spec;
}

nlohmann::json snapshotJson(const MemorySnapshot& s, size_t top) {
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceMemorySummary& d : summaries(s)) {
        nlohmann::json stacks = nlohmann::json::array();
        const std::vector<StackBytes> alive = aliveAt(s, d.device, d.peak_entry);
        for (size_t i = 0; i < alive.size() && (top == 0 || i < top); ++i)
            stacks.push_back({{"bytes", alive[i].bytes},
                              {"blocks", alive[i].blocks},
                              {"frame", userFrame(s, alive[i].stack)},
                              {"stack", stackText(s, alive[i].stack)}});
        devices.push_back({{"device", d.device},
                           {"segments", d.segments},
                           {"reserved_bytes", d.reserved_bytes},
                           {"allocated_bytes", d.allocated_bytes},
                           {"active_bytes", d.active_bytes},
                           {"pending_free_bytes", d.pending_free_bytes},
                           {"inactive_bytes", d.inactive_bytes},
                           {"entries", d.entries},
                           {"peak_allocated_bytes", d.peak_allocated_bytes},
                           {"peak_entry", d.peak_entry},
                           {"peak_time_us", d.peak_time_us},
                           {"peak_reserved_bytes", d.peak_reserved_bytes},
                           {"ooms", d.ooms},
                           {"top_stacks_at_peak", stacks}});
    }
    nlohmann::json out{
        {"protocol", s.protocol}, {"has_device_traces", s.has_device_traces}, {"devices", devices}};
    if (!s.has_device_traces) out["note"] = noHistoryHint();
    return out;
}

namespace {

int64_t categoryTotal(const CategoryTimeline& t, size_t i) {
    int64_t total = 0;
    for (int64_t b : t.bytes[i])
        total += b;
    return total;
}

double msFromStart(const CategoryTimeline& t, size_t i) {
    return t.times_ns.empty() ? 0.0 : double(t.times_ns[i] - t.times_ns.front()) / 1e6;
}

TableSpec categoryTable(const CategoryTimeline& t, size_t index, const char* what) {
    TableSpec spec;
    const int64_t total = t.bytes.empty() ? 0 : categoryTotal(t, index);
    char title[200];
    std::snprintf(title, sizeof title,
                  "Memory by category %s: %lld bytes at %.3f ms (of %zu points, %zu rows)", what,
                  static_cast<long long>(total), t.times_ns.empty() ? 0.0 : msFromStart(t, index),
                  t.times_ns.size(), t.rows);
    spec.title = title;
    spec.columns = {Column{"category", "Category", "torch.profiler's memory categories"},
                    bytesColumn("bytes", "Bytes", "Then"),
                    diagnosis::percentColumn("pct", "Share (%)", "")};
    for (size_t c = 0; c < kMemoryCategories; ++c) {
        const int64_t bytes = t.bytes.empty() ? 0 : t.bytes[index][c];
        spec.rows.push_back(
            {textCell(memoryCategoryName(c)), integerCell(bytes),
             diagnosis::percentCell(total ? 100.0 * double(bytes) / double(total) : 0)});
    }
    return spec;
}

} // namespace

TableSpec categoryPeakTable(const CategoryTimeline& t) {
    return categoryTable(t, categoryPeak(t).index, "at the peak");
}

TableSpec categoryAtTable(const CategoryTimeline& t, size_t index) {
    if (index >= t.times_ns.size()) index = t.times_ns.empty() ? 0 : t.times_ns.size() - 1;
    return categoryTable(t, index, "then");
}

TableSpec categoryTimelineTable(const CategoryTimeline& t, size_t points) {
    TableSpec spec;
    spec.title = "Memory by category over time";
    spec.columns = {Column{"ms", "Time (ms)", "From the first point", ColumnKind::Number},
                    intColumn("index", "Point", "The timeline's point (one per distinct time)")};
    for (size_t c = 0; c < kMemoryCategories; ++c) {
        std::string key = memoryCategoryName(c); // "Optimizer state" -> "optimizer_state_bytes"
        for (char& ch : key)
            ch = ch == ' ' ? '_' : char(std::tolower(static_cast<unsigned char>(ch)));
        spec.columns.push_back(Column{key + "_bytes", memoryCategoryName(c), "Bytes then",
                                      ColumnKind::Integer, false, ColumnUnit::Bytes});
    }
    spec.columns.push_back(bytesColumn("total_bytes", "Total", "The categories together"));
    const size_t n = t.times_ns.size();
    const size_t stride = std::max<size_t>(1, points ? (n + points - 1) / points : 1);
    for (size_t first = 0; first < n; first += stride) {
        size_t best = first;
        for (size_t i = first; i < std::min(n, first + stride); ++i)
            if (categoryTotal(t, i) > categoryTotal(t, best)) best = i;
        std::vector<Cell> row{
            numberCell(numberText("%.3f", msFromStart(t, best)), msFromStart(t, best)),
            integerCell(int64_t(best))};
        for (size_t c = 0; c < kMemoryCategories; ++c)
            row.push_back(integerCell(t.bytes[best][c]));
        row.push_back(integerCell(categoryTotal(t, best)));
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

nlohmann::json categoryPeakJson(const CategoryTimeline& t) {
    const CategoryPeak peak = categoryPeak(t);
    nlohmann::json categories = nlohmann::json::object();
    for (size_t c = 0; c < kMemoryCategories; ++c)
        categories[memoryCategoryName(c)] = peak.bytes[c];
    return {{"points", t.times_ns.size()},
            {"rows", t.rows},
            {"peak_index", peak.index},
            {"peak_time_ns", peak.time_ns},
            {"peak_ms_from_start",
             t.times_ns.empty() ? 0.0 : double(peak.time_ns - t.times_ns.front()) / 1e6},
            {"peak_total_bytes", peak.total_bytes},
            {"categories_at_peak", categories}};
}

std::vector<TableSpec> snapshotDiffTables(const MemorySnapshot& a, const MemorySnapshot& b) {
    TableSpec devices;
    devices.title = "Devices, B against A";
    devices.columns = {intColumn("device", "Device", ""),
                       bytesColumn("reserved_a", "Reserved A", ""),
                       bytesColumn("reserved_b", "Reserved B", ""),
                       bytesColumn("allocated_a", "Allocated A", ""),
                       bytesColumn("allocated_b", "Allocated B", ""),
                       bytesColumn("allocated_delta", "Allocated +/-", "B - A"),
                       intColumn("segments_a", "Segments A", ""),
                       intColumn("segments_b", "Segments B", "")};
    const int n = std::max(a.devices(), b.devices());
    // Stacks are compared by their text: the two files number them apart.
    std::map<std::string, std::pair<int64_t, int64_t>> by_stack;
    std::map<std::string, std::string> frame_of;
    for (int d = 0; d < n; ++d) {
        const DeviceMemorySummary x = summarizeDevice(a, d), y = summarizeDevice(b, d);
        devices.rows.push_back(
            {integerCell(d), integerCell(x.reserved_bytes), integerCell(y.reserved_bytes),
             integerCell(x.allocated_bytes), integerCell(y.allocated_bytes),
             integerCell(y.allocated_bytes - x.allocated_bytes), integerCell(int64_t(x.segments)),
             integerCell(int64_t(y.segments))});
        for (const StackBytes& s : aliveAtSnapshot(a, d)) {
            by_stack[stackText(a, s.stack)].first += s.bytes;
            frame_of[stackText(a, s.stack)] = userFrame(a, s.stack);
        }
        for (const StackBytes& s : aliveAtSnapshot(b, d)) {
            by_stack[stackText(b, s.stack)].second += s.bytes;
            frame_of[stackText(b, s.stack)] = userFrame(b, s.stack);
        }
    }
    TableSpec stacks;
    stacks.title = "Alive at the snapshot, by stack: what grew first";
    stacks.columns = {bytesColumn("delta", "+/-", "B - A"), bytesColumn("bytes_a", "A", ""),
                      bytesColumn("bytes_b", "B", ""), Column{"frame", "User Frame", ""},
                      Column{"stack", "Stack", "Outermost frame first"}};
    std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> rows(by_stack.begin(),
                                                                          by_stack.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
        return x.second.second - x.second.first > y.second.second - y.second.first;
    });
    for (const auto& [stack, bytes] : rows) {
        if (bytes.first == bytes.second) continue;
        stacks.rows.push_back({integerCell(bytes.second - bytes.first), integerCell(bytes.first),
                               integerCell(bytes.second), textCell(frame_of[stack]),
                               textCell(stack)});
    }
    return {devices, stacks};
}

} // namespace ts
