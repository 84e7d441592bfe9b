#include "trace/ChromeTraceWriter.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "util/AtomicFile.h"
#include "util/ErrorText.h"

namespace ts {

namespace {

// Process ids in the file: the steps track, CPU threads, device streams.
constexpr int kStepsPid = 0;
constexpr int kCpuPid = 1;
constexpr int kDevicePid = 2;

std::string quoted(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// ns as microseconds with exactly three decimals (lossless).
void appendMicros(std::string& out, int64_t ns) {
    if (ns < 0) out += '-';
    // The magnitude as unsigned: INT64_MIN has no int64 negation.
    const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    out += std::to_string(magnitude / 1000);
    const auto frac = static_cast<int64_t>(magnitude % 1000);
    out += '.';
    out += static_cast<char>('0' + frac / 100);
    out += static_cast<char>('0' + frac / 10 % 10);
    out += static_cast<char>('0' + frac % 10);
}

const char* categoryOf(EventKind kind, bool device_lane) {
    switch (kind) {
    case EventKind::Operator:
    case EventKind::Backward:
        return "cpu_op";
    case EventKind::Communication: // a collective op, or an NCCL kernel on a GPU lane
        return device_lane ? "kernel" : "cpu_op";
    case EventKind::Annotation:
    case EventKind::DataLoader:
    case EventKind::ProfilerStep:
        return "user_annotation";
    case EventKind::Kernel:
        return "kernel";
    case EventKind::Memcpy:
        return "gpu_memcpy";
    case EventKind::Memset:
        return "gpu_memset";
    case EventKind::Runtime:
        return "cuda_runtime";
    case EventKind::ProfilerRange:
        return "Trace";
    case EventKind::Python:
        return "python";
    case EventKind::Other:
        return "other";
    }
    return "other";
}

class Writer {
public:
    Writer(const Trace& trace, std::ostream& out, const ChromeTraceWriteOptions& options)
        : trace_(trace), out_(out), options_(options) {
        for (const std::string& name : trace.names)
            names_.push_back(quoted(name));
        for (const std::string& s : trace.strings)
            strings_.push_back(nlohmann::json::accept(s) ? s : quoted(s));
        selectEvents();
    }

    void write() {
        buf_ = "{\"traceEvents\": [";
        writeMetadata();
        for (size_t i = 0; i < trace_.events.size(); ++i)
            if (included_[i]) writeEvent(trace_.events[i]);
        writeSteps();
        writeFlows();
        writeMemory();
        writeNotes();
        buf_ += "\n],\n\"displayTimeUnit\": \"ms\",\n";
        // Kineto's key: which rank of which job the trace is (a data-parallel
        // run's ranks), so a folder of them opens in the Distributed view.
        if (nlohmann::json::accept(trace_.kineto.distributed_info))
            buf_ += "\"distributedInfo\": " + trace_.kineto.distributed_info + ",\n";
        buf_ += "\"trainscope\": ";
        buf_ += trainscopeObject().dump();
        buf_ += "\n}\n";
        out_ << buf_;
        buf_.clear();
    }

private:
    void selectEvents() {
        const size_t n = trace_.events.size();
        included_.assign(n, 1);
        const auto cap = static_cast<size_t>(std::max<int64_t>(0, options_.max_events));
        if (cap == 0 || n <= cap) return;
        std::vector<size_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return trace_.events[a].start_ns < trace_.events[b].start_ns;
        });
        std::fill(included_.begin(), included_.end(), 0);
        for (size_t i = 0; i < cap; ++i)
            included_[order[i]] = 1;
        cutoff_ns_ = trace_.events[order[cap]].start_ns;
        notes_.push_back("trace file truncated to " + std::to_string(cap) + " of " +
                         std::to_string(n) + " events (max_trace_events); nothing after " +
                         std::to_string(cutoff_ns_ / 1000000.0) + " ms is shown");
    }

    void begin(const char* ph, const std::string& name, int pid, int64_t tid) {
        buf_ += first_ ? "\n{\"ph\": \"" : ",\n{\"ph\": \"";
        first_ = false;
        buf_ += ph;
        buf_ += "\", \"name\": " + name + ", \"pid\": " + std::to_string(pid) +
                ", \"tid\": " + std::to_string(tid);
        if (buf_.size() > (1u << 20)) {
            out_ << buf_;
            buf_.clear();
        }
    }

    void time(const char* key, int64_t ns) {
        buf_ += ", \"";
        buf_ += key;
        buf_ += "\": ";
        appendMicros(buf_, ns);
    }

    int pidOf(int32_t lane) const {
        return lane >= 0 && static_cast<size_t>(lane) < trace_.lanes.size() &&
                       trace_.lanes[lane].device
                   ? kDevicePid
                   : kCpuPid;
    }

    int64_t tidOf(int32_t lane) const {
        return lane >= 0 && static_cast<size_t>(lane) < trace_.lanes.size() ? trace_.lanes[lane].tid
                                                                            : 0;
    }

    void writeMetadata() {
        auto meta = [&](const char* what, int pid, int64_t tid, const std::string& value) {
            begin("M", quoted(what), pid, tid);
            buf_ += ", \"args\": {\"name\": " + quoted(value) + "}}";
        };
        meta("process_name", kStepsPid, 0, "Training steps");
        meta("thread_name", kStepsPid, 0, "steps");
        meta("process_name", kCpuPid, 0, "CPU (" + trace_.source + ")");
        bool device = false;
        for (const TraceLane& lane : trace_.lanes) {
            device = device || lane.device;
            meta("thread_name", lane.device ? kDevicePid : kCpuPid, lane.tid, lane.name);
        }
        if (device) meta("process_name", kDevicePid, 0, "Device");
    }

    void arg(const char* key, const std::string& raw_json) {
        buf_ += args_open_ ? ", \"" : ", \"args\": {\"";
        args_open_ = true;
        buf_ += key;
        buf_ += "\": ";
        buf_ += raw_json;
    }

    template <typename T> void numberArg(const char* key, T value, T skip) {
        if (value == skip) return;
        if constexpr (std::is_floating_point_v<T>)
            arg(key, nlohmann::json(value).dump());
        else
            arg(key, std::to_string(value));
    }

    void writeEvent(const TraceEvent& e) {
        begin("X", names_[e.name], pidOf(e.lane), tidOf(e.lane));
        buf_ += ", \"cat\": \"";
        buf_ +=
            categoryOf(e.kind, e.lane >= 0 && static_cast<size_t>(e.lane) < trace_.lanes.size() &&
                                   trace_.lanes[e.lane].device);
        buf_ += '"';
        time("ts", e.start_ns);
        time("dur", e.dur_ns);
        args_open_ = false;
        arg("kind", quoted(toString(e.kind)));
        if (e.shapes >= 0) arg("Input Dims", strings_[e.shapes]);
        if (e.types >= 0) arg("Input type", strings_[e.types]);
        if (e.args >= 0) arg("Concrete Inputs", strings_[e.args]);
        numberArg<int64_t>("Sequence number", e.seq, -1);
        numberArg<int64_t>("step", e.step, -1);
        numberArg<double>("flops", e.flops, 0);
        numberArg<double>("bytes", e.bytes, 0);
        numberArg<double>("memory bandwidth (GB/s)", e.gbps, 0);
        numberArg<int64_t>("device_ns", e.device_ns, 0);
        numberArg<int64_t>("alloc_bytes", e.alloc_bytes, 0);
        numberArg<int64_t>("free_bytes", e.free_bytes, 0);
        buf_ += "}}";
    }

    void writeSteps() {
        for (const StepMark& s : trace_.steps) {
            begin("X", quoted("ProfilerStep#" + std::to_string(s.step)), kStepsPid, 0);
            buf_ += ", \"cat\": \"trainscope_step\"";
            time("ts", s.start_ns);
            time("dur", s.end_ns - s.start_ns);
            buf_ += ", \"args\": {\"step\": " + std::to_string(s.step) + "}}";
        }
    }

    // Forward op -> backward node arrows; "bp": "e" binds the end to the
    // enclosing slice (the node), as torch.profiler's "fwdbwd" flows do.
    void writeFlows() {
        int64_t id = 0;
        static const std::string kFlow = quoted("fwdbwd");
        for (size_t i = 0; i < trace_.events.size(); ++i) {
            const TraceEvent& fwd = trace_.events[i];
            if (fwd.kind != EventKind::Operator || fwd.link < 0 || !included_[i] ||
                !included_[fwd.link])
                continue;
            const TraceEvent& bwd = trace_.events[fwd.link];
            ++id;
            begin("s", kFlow, pidOf(fwd.lane), tidOf(fwd.lane));
            buf_ += ", \"cat\": \"fwdbwd\", \"id\": " + std::to_string(id);
            time("ts", fwd.start_ns);
            buf_ += "}";
            begin("f", kFlow, pidOf(bwd.lane), tidOf(bwd.lane));
            buf_ += ", \"cat\": \"fwdbwd\", \"bp\": \"e\", \"id\": " + std::to_string(id);
            time("ts", bwd.start_ns);
            buf_ += "}";
        }
    }

    void writeMemory() {
        static const std::string kName = quoted("CPU memory");
        for (const MemorySample& m : trace_.memory) {
            if (cutoff_ns_ >= 0 && m.t_ns >= cutoff_ns_) break;
            begin("C", kName, kCpuPid, 0);
            time("ts", m.t_ns);
            buf_ += ", \"args\": {\"live_bytes\": " + std::to_string(m.live_bytes) + "}}";
        }
    }

    // Notes as global instant events, so viewers show them on the timeline.
    void writeNotes() {
        std::vector<std::string> all = trace_.notes;
        all.insert(all.end(), notes_.begin(), notes_.end());
        for (const std::string& note : all) {
            begin("i", quoted("NOTE: " + note), kCpuPid, 0);
            buf_ += ", \"cat\": \"trainscope_note\", \"s\": \"g\", \"ts\": 0.000}";
        }
    }

    nlohmann::json trainscopeObject() const {
        std::vector<std::string> all = trace_.notes;
        all.insert(all.end(), notes_.begin(), notes_.end());
        return {{"format_version", 1},
                {"source", trace_.source},
                {"origin_unix_ns", trace_.origin_ns},
                {"window", options_.window},
                {"first_step", options_.first_step},
                {"last_step", options_.last_step},
                {"events", trace_.events.size()},
                {"notes", all}};
    }

    const Trace& trace_;
    std::ostream& out_;
    ChromeTraceWriteOptions options_;
    std::vector<std::string> names_, strings_, notes_;
    std::vector<char> included_;
    int64_t cutoff_ns_ = -1;
    std::string buf_;
    bool first_ = true;
    bool args_open_ = false;
};

} // namespace

void writeChromeTrace(const Trace& trace, std::ostream& out,
                      const ChromeTraceWriteOptions& options) {
    Writer(trace, out, options).write();
}

void writeChromeTraceFile(const Trace& trace, const std::filesystem::path& path,
                          const ChromeTraceWriteOptions& options) {
    writeAtomically(path, [&](const std::filesystem::path& tmp) {
        errno = 0;
        std::ofstream out(tmp, std::ios::binary);
        if (out) writeChromeTrace(trace, out, options);
        out.close(); // its last write may be the one that fails
        if (!out) throw std::runtime_error(writeError(path.string(), errno));
    });
}

} // namespace ts
