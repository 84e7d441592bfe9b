#include "trace/ChromeTraceReader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <unordered_map>

#include <zlib.h>

#include "trace/TraceJsonStream.h"

namespace ts {

namespace {

using json = nlohmann::json;

const json* find(const json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

bool getInt(const json& object, const char* key, int64_t& out) {
    const json* v = find(object, key);
    if (!v || !v->is_number()) return false;
    out = v->is_number_float() ? static_cast<int64_t>(std::llround(v->get<double>()))
                               : v->get<int64_t>();
    return true;
}

double getDouble(const json& object, const char* key, double fallback = 0) {
    const json* v = find(object, key);
    return v && v->is_number() ? v->get<double>() : fallback;
}

std::string getString(const json& object, const char* key) {
    const json* v = find(object, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

// pid/tid may be numbers or strings ("CPU functions").
std::string idText(const json& event, const char* key) {
    const json* v = find(event, key);
    if (!v) return "0";
    return v->is_string() ? v->get<std::string>() : v->dump();
}

// JSON text with torch.profiler's ", " separators ("[[4, 3, 8, 8], []]"), so
// shapes read back compare equal to the ones recorded.
void appendSpaced(std::string& out, const json& v) {
    if (v.is_array()) {
        out += '[';
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            appendSpaced(out, v[i]);
        }
        out += ']';
        return;
    }
    out += v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string spacedJson(const json& v) {
    std::string out;
    appendSpaced(out, v);
    return out;
}

EventKind kindFromCategory(const std::string& cat, const std::string& name) {
    if (cat == "cpu_op" || cat == "operator" || cat == "Operator" || cat.empty()) {
        if (isAutogradEventName(name)) return EventKind::Backward;
        // Legacy traces have no category: ATen ops carry a namespace, user
        // ranges (record_function) do not.
        if (cat.empty() && name.find("::") == std::string::npos) return EventKind::Annotation;
        return EventKind::Operator;
    }
    if (cat == "user_annotation" || cat == "gpu_user_annotation") return EventKind::Annotation;
    if (cat == "kernel" || cat == "Kernel") return EventKind::Kernel;
    if (cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "Memcpy" || cat == "Memset")
        return EventKind::Memcpy;
    return EventKind::Other;
}

bool isDeviceCategory(const std::string& cat) {
    return cat == "kernel" || cat == "Kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" ||
           cat == "Memcpy" || cat == "Memset" || cat == "gpu_user_annotation";
}

// A memory instant waiting for the nesting (attributed after finalize()).
struct PendingMemory {
    int32_t lane;
    size_t sample;
};

class TraceBuilder : public TraceJsonVisitor {
public:
    void event(json& e) override;
    void meta(const std::string& key, json& value) override;
    void malformed() override { ++malformed_; }
    Trace finish(const std::string& origin, TraceJsonRoot root);

private:
    void addComplete(const json& e);
    void addArgs(const json& args, TraceEvent& t);
    void addMemory(const json& e);
    int32_t laneOf(const json& e, bool device);
    void attributeDeviceTime(const std::vector<int32_t>& new_index);
    void attributeMemory();
    void rebase();

    Trace trace_;
    std::map<std::string, int32_t> lanes_;                 // "pid|tid" -> lane
    std::map<std::string, std::string> thread_names_;      // "pid|tid" -> name
    std::unordered_map<int64_t, int32_t> op_by_external_;  // External id -> event
    std::vector<std::pair<int32_t, int64_t>> device_work_; // (event, External id)
    std::vector<PendingMemory> pending_memory_;
    json trainscope_;
    bool kineto_ = false, legacy_ = false, have_flops_ = false;
    int64_t malformed_ = 0, python_skipped_ = 0, unsupported_ = 0;
};

int32_t TraceBuilder::laneOf(const json& e, bool device) {
    const std::string pid = idText(e, "pid"), tid = idText(e, "tid");
    const std::string key = pid + "|" + tid;
    auto it = lanes_.find(key);
    if (it != lanes_.end()) return it->second;
    int64_t numeric = static_cast<int64_t>(lanes_.size());
    const json* t = find(e, "tid");
    if (t && t->is_number_integer()) numeric = t->get<int64_t>();
    legacy_ = legacy_ || pid == "CPU functions";
    const bool device_lane = device || pid.find("CUDA") != std::string::npos;
    trace_.lanes.push_back(
        TraceLane{(device_lane ? "stream " : "thread ") + tid, numeric, device_lane});
    const auto lane = static_cast<int32_t>(trace_.lanes.size() - 1);
    lanes_.emplace(key, lane);
    return lane;
}

void TraceBuilder::event(json& e) {
    const std::string ph = getString(e, "ph");
    if (ph == "X") return addComplete(e);
    if (ph == "B" || ph == "E") return void(++unsupported_);
    if ((ph == "i" || ph == "I") && getString(e, "name") == "[memory]") return addMemory(e);
    if (ph == "C" && getString(e, "name") == "CPU memory") return addMemory(e);
    if (ph == "M" && getString(e, "name") == "thread_name") {
        const json* args = find(e, "args");
        if (args)
            thread_names_[idText(e, "pid") + "|" + idText(e, "tid")] = getString(*args, "name");
        return;
    }
    if (ph.empty()) ++malformed_;
}

void TraceBuilder::addComplete(const json& e) {
    int64_t ts = 0, dur = 0;
    const std::string name = getString(e, "name");
    if (name.empty() || !getInt(e, "ts_ns", ts)) return void(++malformed_);
    getInt(e, "dur_ns", dur);
    const std::string cat = getString(e, "cat");
    const json* args = find(e, "args");
    if (cat == "python_function") return void(++python_skipped_);
    kineto_ = kineto_ || cat == "cpu_op";
    if (cat == "trainscope_step" || name.rfind("ProfilerStep#", 0) == 0) {
        int64_t step = -1;
        if (!args || !getInt(*args, "step", step)) step = std::atoll(name.c_str() + 13);
        trace_.steps.push_back(StepMark{step, ts, ts + std::max<int64_t>(0, dur)});
        if (cat == "trainscope_step") return; // Trainscope's own steps track
    }
    TraceEvent t;
    t.name = trace_.internName(name);
    const std::string kind = args ? getString(*args, "kind") : std::string();
    t.kind = kind.empty() ? kindFromCategory(cat, name) : eventKindFromString(kind);
    t.lane = laneOf(e, isDeviceCategory(cat));
    t.start_ns = ts;
    t.dur_ns = std::max<int64_t>(0, dur);
    if (args) addArgs(*args, t);
    trace_.events.push_back(t);
}

void TraceBuilder::addArgs(const json& args, TraceEvent& t) {
    const int32_t index = static_cast<int32_t>(trace_.events.size());
    for (const char* key : {"Input Dims", "Input dims"})
        if (const json* v = find(args, key); v && v->is_array())
            t.shapes = trace_.internString(spacedJson(*v));
    if (const json* v = find(args, "Input type"); v && v->is_array())
        t.types = trace_.internString(spacedJson(*v));
    if (const json* v = find(args, "Concrete Inputs"); v && v->is_array())
        t.args = trace_.internString(spacedJson(*v));
    getInt(args, "Sequence number", t.seq);
    getInt(args, "step", t.step);
    getInt(args, "device_ns", t.device_ns);
    getInt(args, "alloc_bytes", t.alloc_bytes);
    getInt(args, "free_bytes", t.free_bytes);
    t.flops = getDouble(args, "flops");
    t.bytes = getDouble(args, "bytes");
    have_flops_ = have_flops_ || t.flops > 0;
    int64_t external = -1;
    if (!getInt(args, "External id", external)) return;
    if (t.kind == EventKind::Kernel || t.kind == EventKind::Memcpy)
        device_work_.emplace_back(index, external);
    else if (t.kind == EventKind::Operator || t.kind == EventKind::Backward)
        op_by_external_[external] = index; // the innermost op wins: it comes last
}

void TraceBuilder::addMemory(const json& e) {
    int64_t ts = 0;
    const json* args = find(e, "args");
    if (!args || !getInt(e, "ts_ns", ts)) return void(++malformed_);
    MemorySample m;
    m.t_ns = ts;
    if (getInt(*args, "live_bytes", m.live_bytes)) { // Trainscope's counter track
        m.delta_bytes = trace_.memory.empty() ? 0 : m.live_bytes - trace_.memory.back().live_bytes;
        trace_.memory.push_back(m);
        return;
    }
    int64_t device_type = 0;
    getInt(*args, "Device Type", device_type);
    if (device_type != 0) return; // CPU only (c10::DeviceType::CPU == 0)
    getInt(*args, "Total Allocated", m.live_bytes);
    getInt(*args, "Bytes", m.delta_bytes);
    pending_memory_.push_back(PendingMemory{laneOf(e, false), trace_.memory.size()});
    trace_.memory.push_back(m);
}

void TraceBuilder::meta(const std::string& key, json& value) {
    if (key == "trainscope")
        trainscope_ = std::move(value);
    else if (key == "schemaVersion" || key == "deviceProperties")
        kineto_ = true;
}

// Device kernels add their time to the op that launched them and its
// ancestors (TraceEvent::device_ns includes children, like dur_ns).
void TraceBuilder::attributeDeviceTime(const std::vector<int32_t>& new_index) {
    for (const auto& [kernel, external] : device_work_) {
        auto it = op_by_external_.find(external);
        if (it == op_by_external_.end()) continue;
        const int64_t dur = trace_.events[new_index[kernel]].dur_ns;
        for (int32_t op = new_index[it->second]; op >= 0; op = trace_.events[op].parent)
            trace_.events[op].device_ns += dur;
    }
}

// torch.profiler's [memory] instants count towards the innermost op open on
// their thread at that time (its "Self CPU Mem").
void TraceBuilder::attributeMemory() {
    std::vector<size_t> lane_begin(trace_.lanes.size() + 1, trace_.events.size());
    for (size_t i = trace_.events.size(); i-- > 0;)
        lane_begin[trace_.events[i].lane] = i;
    for (size_t l = trace_.lanes.size(); l-- > 0;)
        lane_begin[l] = std::min(lane_begin[l], lane_begin[l + 1]);
    for (const PendingMemory& p : pending_memory_) {
        MemorySample& m = trace_.memory[p.sample];
        auto first = trace_.events.begin() + static_cast<std::ptrdiff_t>(lane_begin[p.lane]);
        auto last = trace_.events.begin() + static_cast<std::ptrdiff_t>(lane_begin[p.lane + 1]);
        auto it = std::upper_bound(first, last, m.t_ns,
                                   [](int64_t t, const TraceEvent& e) { return t < e.start_ns; });
        if (it == first) continue;
        int32_t event = static_cast<int32_t>(it - 1 - trace_.events.begin());
        while (event >= 0 && trace_.events[event].end_ns() < m.t_ns)
            event = trace_.events[event].parent;
        if (event < 0) continue;
        m.event = event;
        if (m.delta_bytes > 0)
            trace_.events[event].alloc_bytes += m.delta_bytes;
        else
            trace_.events[event].free_bytes -= m.delta_bytes;
    }
}

// Times relative to the earliest one; origin_ns keeps the absolute start.
void TraceBuilder::rebase() {
    int64_t first = std::numeric_limits<int64_t>::max();
    for (const TraceEvent& e : trace_.events)
        first = std::min(first, e.start_ns);
    for (const StepMark& s : trace_.steps)
        first = std::min(first, s.start_ns);
    for (const MemorySample& m : trace_.memory)
        first = std::min(first, m.t_ns);
    if (first == std::numeric_limits<int64_t>::max()) first = 0;
    for (TraceEvent& e : trace_.events)
        e.start_ns -= first;
    for (StepMark& s : trace_.steps)
        s.start_ns -= first, s.end_ns -= first;
    for (MemorySample& m : trace_.memory)
        m.t_ns -= first;
    trace_.origin_ns = first;
}

Trace TraceBuilder::finish(const std::string& origin, TraceJsonRoot root) {
    if (root == TraceJsonRoot::Other)
        throw TraceReadError(origin + ": not a Chrome trace: expected a JSON list of trace events "
                                      "or an object with \"traceEvents\".");
    if (trace_.events.empty() && trace_.steps.empty())
        throw TraceReadError(origin + ": no trace events found (the event list is empty).");
    for (auto& [key, lane] : lanes_) {
        auto it = thread_names_.find(key);
        if (it != thread_names_.end() && !it->second.empty()) trace_.lanes[lane].name = it->second;
    }
    rebase();
    std::vector<int32_t> new_index;
    trace_.finalize(&new_index);
    attributeDeviceTime(new_index);
    attributeMemory();
    if (trainscope_.is_object()) {
        trace_.source = getString(trainscope_, "source");
        if (trace_.source.empty()) trace_.source = "trainscope";
        int64_t origin_unix = 0;
        if (getInt(trainscope_, "origin_unix_ns", origin_unix)) trace_.origin_ns += origin_unix;
        if (const json* notes = find(trainscope_, "notes"); notes && notes->is_array())
            for (const json& n : *notes)
                if (n.is_string()) trace_.notes.push_back(n.get<std::string>());
    } else {
        trace_.source = kineto_   ? "torch.profiler (kineto)"
                        : legacy_ ? "torch.profiler (legacy)"
                                  : "chrome trace";
        if (have_flops_) trace_.notes.push_back("FLOPs taken from the trace file");
    }
    if (malformed_ > 0)
        trace_.notes.push_back(std::to_string(malformed_) + " malformed trace events skipped");
    if (unsupported_ > 0)
        trace_.notes.push_back(std::to_string(unsupported_) +
                               " begin/end (\"B\"/\"E\") events skipped: only complete "
                               "(\"X\") events are read");
    if (python_skipped_ > 0)
        trace_.notes.push_back(std::to_string(python_skipped_) +
                               " python_function events skipped (not operators)");
    return std::move(trace_);
}

std::string readPlain(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceReadError(path.string() + ": cannot open the file for reading.");
    std::string text;
    in.seekg(0, std::ios::end);
    text.resize(static_cast<size_t>(in.tellg()));
    in.seekg(0);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (!in) throw TraceReadError(path.string() + ": reading the file failed.");
    return text;
}

std::string readGzip(const std::filesystem::path& path) {
    gzFile file = gzopen(path.string().c_str(), "rb");
    if (!file) throw TraceReadError(path.string() + ": cannot open the file for reading.");
    std::string text;
    char chunk[1 << 16];
    int n = 0;
    while ((n = gzread(file, chunk, sizeof(chunk))) > 0) {
        text.append(chunk, static_cast<size_t>(n));
        if (static_cast<int64_t>(text.size()) > kMaxTraceFileBytes) {
            gzclose(file);
            throw TraceReadError(path.string() + ": decompresses to more than 2 GB; traces that "
                                                 "large are not read (viewers cannot open them "
                                                 "either).");
        }
    }
    int status = Z_OK;
    gzerror(file, &status);
    const bool failed = n < 0 || (status != Z_OK && status != Z_STREAM_END);
    gzclose(file);
    if (failed) throw TraceReadError(path.string() + ": not a valid gzip file (truncated?).");
    return text;
}

bool isGzip(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char magic[2] = {0, 0};
    in.read(reinterpret_cast<char*>(magic), 2);
    return in && magic[0] == 0x1f && magic[1] == 0x8b;
}

} // namespace

Trace parseChromeTrace(const std::string& text, const std::string& origin) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw TraceReadError(origin + ": the file is empty; expected a Chrome trace (JSON).");
    TraceBuilder builder;
    const TraceJsonRoot root = streamTraceJson(text, origin, builder);
    return builder.finish(origin, root);
}

Trace readChromeTraceFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw TraceReadError(path.string() + ": no such trace file.");
    const auto size = static_cast<int64_t>(std::filesystem::file_size(path, ec));
    if (ec) throw TraceReadError(path.string() + ": cannot read the file size.");
    if (size > kMaxTraceFileBytes)
        throw TraceReadError(path.string() + ": the file is " + std::to_string(size / (1 << 20)) +
                             " MB; traces above 2 GB are not read (viewers cannot open them "
                             "either). Record a shorter window (profile.active, "
                             "profile.max_trace_events).");
    const std::string text = isGzip(path) ? readGzip(path) : readPlain(path);
    return parseChromeTrace(text, path.string());
}

} // namespace ts
