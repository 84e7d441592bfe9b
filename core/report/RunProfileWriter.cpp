#include "report/RunProfileWriter.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/OpStats.h"
#include "analysis/OpTableFormat.h"
#include "analysis/StepBreakdown.h"
#include "report/RunDirectory.h"
#include "trace/ChromeTraceWriter.h"
#include "util/AtomicFile.h"
#include "util/Csv.h"

namespace ts {

namespace {

constexpr size_t kTopOps = 10;
constexpr double kNsPerMs = 1e6;

std::string windowFileName(const char* base, int window) {
    const std::string name(base);
    if (window <= 0) return name;
    const size_t dot = name.rfind('.');
    return name.substr(0, dot) + "_" + std::to_string(window) + name.substr(dot);
}

nlohmann::json topOps(const OpTable& table) {
    nlohmann::json rows = nlohmann::json::array();
    const double total = static_cast<double>(table.total_self_cpu_ns);
    for (size_t i = 0; i < std::min(kTopOps, table.rows.size()); ++i) {
        const OpStat& r = table.rows[i];
        rows.push_back({{"name", r.name},
                        {"calls", r.calls},
                        {"self_cpu_ms", r.self_cpu_ns / kNsPerMs},
                        {"self_cpu_pct", total > 0 ? 100.0 * r.self_cpu_ns / total : 0.0},
                        {"cpu_total_ms", r.cpu_total_ns / kNsPerMs},
                        {"self_device_ms", r.self_device_ns / kNsPerMs},
                        {"self_cpu_mem_bytes", r.self_cpu_mem_bytes},
                        {"gflops", r.flops / 1e9},
                        {"gflop_per_s", r.gflopsPerSec()}});
    }
    return rows;
}

nlohmann::json flopTotals(const Trace& trace) {
    const OpTable forward = computeOpStats(trace, OpGrouping::Name, OpScope::Forward);
    const OpTable backward = computeOpStats(trace, OpGrouping::Name, OpScope::Backward);
    auto sum = [](const OpTable& t) {
        double flops = 0;
        for (const OpStat& r : t.rows)
            flops += r.flops;
        return flops;
    };
    const double f = sum(forward), b = sum(backward);
    return {
        {"forward_gflops", f / 1e9}, {"backward_gflops", b / 1e9}, {"total_gflops", (f + b) / 1e9}};
}

// Kineto's CPU [memory] instants, for a trace without Trainscope's own
// samples (one Kineto recorded): live bytes are their "Total Allocated".
std::vector<MemorySample> kinetoCpuSamples(const Trace& trace) {
    std::vector<MemorySample> out;
    for (const DeviceMemoryEvent& m : trace.kineto.memory)
        if (m.device_type <= 0 && (m.flags & DeviceMemoryEvent::kHasTotalAllocated))
            out.push_back(MemorySample{m.t_ns, m.total_allocated, m.bytes, -1});
    return out;
}

const std::vector<MemorySample>& cpuSamples(const Trace& trace,
                                            std::vector<MemorySample>& storage) {
    if (!trace.memory.empty()) return trace.memory;
    storage = kinetoCpuSamples(trace);
    return storage;
}

int64_t peakLiveBytes(const Trace& trace) {
    std::vector<MemorySample> storage;
    int64_t peak = 0;
    for (const MemorySample& m : cpuSamples(trace, storage))
        peak = std::max(peak, m.live_bytes);
    return peak;
}

// Kineto's own file, byte for byte (a real torch.profiler trace).
void copyFileAtomically(const std::filesystem::path& from, const std::filesystem::path& to) {
    writeAtomically(to, [&](const std::filesystem::path& tmp) {
        std::ifstream in(from, std::ios::binary);
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << in.rdbuf();
        out.flush();
        if (!in || !out)
            throw std::runtime_error("cannot copy Kineto's trace '" + from.string() + "' to '" +
                                     to.string() + "'");
    });
}

} // namespace

std::string formatMemoryCsv(const Trace& trace) {
    std::ostringstream out;
    out << "t_ms,live_bytes,delta_bytes,op\n";
    char t[32];
    std::vector<MemorySample> storage;
    for (const MemorySample& m : cpuSamples(trace, storage)) {
        std::snprintf(t, sizeof(t), "%.6f", m.t_ns / kNsPerMs);
        out << t << ',' << m.live_bytes << ',' << m.delta_bytes << ',';
        if (m.event >= 0 && static_cast<size_t>(m.event) < trace.events.size())
            out << csvField(trace.nameOf(trace.events[m.event]));
        out << '\n';
    }
    return out.str();
}

nlohmann::json profileSummary(const ProfileCapture& capture, const nlohmann::json& files) {
    const Trace& trace = capture.trace;
    const OpTable table = computeOpStats(trace);
    return {{"window", capture.window},
            {"recorder", capture.recorder},
            {"first_step", capture.first_step},
            {"last_step", capture.last_step},
            {"steps", trace.steps.size()},
            {"source", trace.source},
            {"events", trace.events.size()},
            {"files", files},
            {"self_cpu_total_ms", table.total_self_cpu_ns / kNsPerMs},
            {"top_ops", topOps(table)},
            {"breakdown", toJson(computeStepBreakdown(trace))},
            {"peak_memory_bytes", peakLiveBytes(trace)},
            {"flops", flopTotals(trace)},
            {"notes", trace.notes}};
}

nlohmann::json writeProfileOutputs(const ProfileCapture& capture,
                                   const std::filesystem::path& run_dir) {
    const Trace& trace = capture.trace;
    const std::string ops = windowFileName(run_files::kOpsCsv, capture.window);
    const std::string trace_file = windowFileName(run_files::kTraceJson, capture.window);
    const std::string memory = windowFileName(run_files::kMemoryCsv, capture.window);
    try {
        writeFileAtomically(run_dir / ops, formatOpTableCsv(computeOpStats(trace)));
        ChromeTraceWriteOptions options;
        options.window = capture.window;
        options.first_step = capture.first_step;
        options.last_step = capture.last_step;
        if (capture.kineto_file)
            copyFileAtomically(*capture.kineto_file, run_dir / trace_file);
        else
            writeChromeTraceFile(trace, run_dir / trace_file, options);
        writeFileAtomically(run_dir / memory, formatMemoryCsv(trace));
    } catch (...) {
        // A window is all its files or none (a full disk): none of them
        // stays for a view to show without the others.
        std::error_code ignored;
        for (const auto& name : {ops, trace_file, memory})
            std::filesystem::remove(run_dir / name, ignored);
        throw;
    }
    return profileSummary(capture, {{"ops", ops}, {"trace", trace_file}, {"memory", memory}});
}

} // namespace ts
