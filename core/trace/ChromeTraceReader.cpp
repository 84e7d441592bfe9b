#include "trace/ChromeTraceReader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <unordered_map>

#include "trace/KinetoNames.h"
#include "trace/TraceJsonStream.h"
#include "trace/TraceSource.h"

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

// The kind of an event: by its category first, then by its name (the
// TensorBoard plugin's rules; see docs/gpu-traces.md).
EventKind kindFromCategory(KinetoCategory category, const std::string& name) {
    switch (category) {
    case KinetoCategory::None:
    case KinetoCategory::Operator:
        if (isProfilerStepName(name)) return EventKind::ProfilerStep;
        if (isDataLoaderName(name)) return EventKind::DataLoader;
        if (isCommunicationOpName(name)) return EventKind::Communication;
        if (isOptimizerName(name)) return EventKind::Annotation;
        if (isAutogradEventName(name)) return EventKind::Backward;
        // Legacy traces have no category: ATen ops carry a namespace, user
        // ranges (record_function) do not.
        if (category == KinetoCategory::None && name.find("::") == std::string::npos)
            return EventKind::Annotation;
        return EventKind::Operator;
    case KinetoCategory::UserAnnotation:
        if (isProfilerStepName(name)) return EventKind::ProfilerStep;
        if (isDataLoaderName(name)) return EventKind::DataLoader;
        if (isCommunicationOpName(name)) return EventKind::Communication;
        return EventKind::Annotation;
    case KinetoCategory::GpuUserAnnotation:
        return EventKind::Annotation;
    case KinetoCategory::Trace:
        return EventKind::ProfilerRange;
    case KinetoCategory::Runtime:
    case KinetoCategory::Driver:
        return EventKind::Runtime;
    case KinetoCategory::Kernel:
        return isCommunicationKernelName(name) ? EventKind::Communication : EventKind::Kernel;
    case KinetoCategory::Memcpy:
        return EventKind::Memcpy;
    case KinetoCategory::Memset:
        return EventKind::Memset;
    case KinetoCategory::Python:
        return EventKind::Python;
    case KinetoCategory::Other:
        return EventKind::Other;
    }
    return EventKind::Other;
}

bool isDeviceCategory(KinetoCategory c) {
    return c == KinetoCategory::Kernel || c == KinetoCategory::Memcpy ||
           c == KinetoCategory::Memset || c == KinetoCategory::GpuUserAnnotation;
}

bool launchesDeviceWork(KinetoCategory c) {
    return c == KinetoCategory::Kernel || c == KinetoCategory::Memcpy ||
           c == KinetoCategory::Memset;
}

// Kineto writes launch dimensions as [x, y, z].
std::array<int32_t, 3> dims(const json& args, const char* key) {
    std::array<int32_t, 3> out{-1, -1, -1};
    const json* v = find(args, key);
    if (!v || !v->is_array()) return out;
    for (size_t i = 0; i < 3 && i < v->size(); ++i)
        if ((*v)[i].is_number()) out[i] = static_cast<int32_t>((*v)[i].get<double>());
    return out;
}

float optionalFloat(const json& args, const char* key) {
    const json* v = find(args, key);
    return v && v->is_number() ? static_cast<float>(v->get<double>()) : kNoValue;
}

// "stream 7" -> 7; a number as is; -1 otherwise.
int64_t streamNumber(const json& event) {
    const json* t = find(event, "tid");
    if (!t) return -1;
    if (t->is_number_integer()) return t->get<int64_t>();
    if (!t->is_string()) return -1;
    const std::string text = t->get<std::string>();
    const size_t digit = text.find_first_of("0123456789");
    return digit == std::string::npos ? -1 : std::atoll(text.c_str() + digit);
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
    void addKinetoArgs(const json& e, const json* args, KinetoCategory category, int64_t ts);
    void addPythonFrame(const json& e, const std::string& name, int64_t ts, int64_t dur);
    void addMemory(const json& e);
    void addDeviceMemory(const json& e, const json& args, int64_t ts);
    void addFlow(const json& e, const std::string& ph);
    void linkThroughFlows();
    void readDeviceProperties(const json& list);
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
    // ac2g flows ("s" at the runtime call, "f" at the device work, id = the
    // correlation), keyed "pid|tid|ts_ns": they link events without a
    // correlation argument.
    std::map<std::string, int64_t> flow_start_, flow_end_;
    std::vector<std::pair<int32_t, std::string>> uncorrelated_; // (event, its flow key)
    bool any_category_ = false;
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
    TraceLane made{(device_lane ? "stream " : "thread ") + tid, numeric, device_lane};
    const json* p = find(e, "pid");
    if (device && p && p->is_number_integer()) { // Kineto: pid = GPU, tid = "stream N"
        made.gpu = p->get<int32_t>();
        made.stream = streamNumber(e);
        made.name =
            "GPU " + pid + " stream " + (made.stream >= 0 ? std::to_string(made.stream) : tid);
    }
    trace_.lanes.push_back(made);
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
    if ((ph == "s" || ph == "f") && getString(e, "cat") == "ac2g") return addFlow(e, ph);
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
    if (cat == "python_function") return addPythonFrame(e, name, ts, dur);
    kineto_ = kineto_ || cat == "cpu_op";
    if (cat == "trainscope_step" || isProfilerStepName(name)) {
        int64_t step = -1;
        if (!args || !getInt(*args, "step", step)) step = std::atoll(name.c_str() + 13);
        trace_.steps.push_back(StepMark{step, ts, ts + std::max<int64_t>(0, dur)});
        if (cat == "trainscope_step") return; // Trainscope's own steps track
    }
    const KinetoCategory category = kinetoCategoryFromString(cat);
    any_category_ = any_category_ || category != KinetoCategory::None;
    TraceEvent t;
    t.name = trace_.internName(name);
    const std::string kind = args ? getString(*args, "kind") : std::string();
    t.kind = kind.empty() ? kindFromCategory(category, name) : eventKindFromString(kind);
    t.lane = laneOf(e, isDeviceCategory(category));
    t.start_ns = ts;
    t.dur_ns = std::max<int64_t>(0, dur);
    if (args) addArgs(*args, t);
    addKinetoArgs(e, args, category, ts);
    trace_.events.push_back(t);
}

// Ids, launch properties and call stacks into the side tables (before the
// event is appended: its index is events.size()).
void TraceBuilder::addKinetoArgs(const json& e, const json* args, KinetoCategory category,
                                 int64_t ts) {
    KinetoInfo& k = trace_.kineto;
    const auto index = static_cast<int32_t>(trace_.events.size());
    k.category.push_back(category);
    EventIds ids{index, -1, -1};
    if (args) {
        getInt(*args, "correlation", ids.correlation);
        if (!getInt(*args, "External id", ids.external_id))
            getInt(*args, "external id", ids.external_id);
    }
    const bool linked = launchesDeviceWork(category) || category == KinetoCategory::Runtime ||
                        category == KinetoCategory::Driver;
    if (linked && ids.correlation < 0)
        uncorrelated_.emplace_back(index, idText(e, "pid") + "|" + idText(e, "tid") + "|" +
                                              std::to_string(ts));
    if (ids.correlation >= 0 || ids.external_id >= 0) k.ids.push_back(ids);
    if (!args) return;
    if (launchesDeviceWork(category)) {
        DeviceLaunch d;
        d.event = index;
        int64_t v = -1;
        if (getInt(*args, "device", v)) d.device = static_cast<int32_t>(v);
        if (getInt(*args, "stream", v)) d.stream = static_cast<int32_t>(v);
        d.grid = dims(*args, "grid");
        d.block = dims(*args, "block");
        if (getInt(*args, "registers per thread", v)) d.registers = static_cast<int32_t>(v);
        if (getInt(*args, "shared memory", v)) d.shared_memory = static_cast<int32_t>(v);
        d.blocks_per_sm = optionalFloat(*args, "blocks per SM");
        d.occupancy = optionalFloat(*args, "est. achieved occupancy %");
        k.launches.push_back(d);
    }
    if (const json* stack = find(*args, "Call stack"); stack && stack->is_string())
        k.call_stacks.emplace_back(index, trace_.internString(stack->get<std::string>()));
}

// python_function events are not events of the trace (they would double the
// operator tree); their module ids are kept for the module view.
void TraceBuilder::addPythonFrame(const json& e, const std::string& name, int64_t ts, int64_t dur) {
    ++python_skipped_;
    PythonFrame f;
    f.name = static_cast<int32_t>(trace_.internName(name));
    f.lane = laneOf(e, false);
    f.start_ns = ts;
    f.dur_ns = std::max<int64_t>(0, dur);
    if (const json* args = find(e, "args")) {
        getInt(*args, "Python id", f.python_id);
        getInt(*args, "Python parent id", f.parent_id);
        getInt(*args, "Python module id", f.module_id);
    }
    trace_.kineto.python_frames.push_back(f);
}

void TraceBuilder::addFlow(const json& e, const std::string& ph) {
    int64_t ts = 0, id = -1;
    if (!getInt(e, "ts_ns", ts) || !getInt(e, "id", id)) return;
    const std::string key = idText(e, "pid") + "|" + idText(e, "tid") + "|" + std::to_string(ts);
    (ph == "s" ? flow_start_ : flow_end_)[key] = id;
}

// Newer Kineto traces link a runtime call to its device work with ac2g
// flows as well as with args.correlation; when the argument is missing the
// flow supplies it.
void TraceBuilder::linkThroughFlows() {
    KinetoInfo& k = trace_.kineto;
    bool added = false;
    // Not a structured binding: C++17 lambdas (below) cannot capture those.
    for (const auto& entry : uncorrelated_) {
        const auto event = entry.first;
        const auto& key = entry.second;
        const bool device = launchesDeviceWork(k.category[event]);
        const auto& flows = device ? flow_end_ : flow_start_;
        auto it = flows.find(key);
        if (it == flows.end()) continue;
        auto row = std::find_if(k.ids.begin(), k.ids.end(),
                                [&](const EventIds& r) { return r.event == event; });
        if (row == k.ids.end()) {
            k.ids.push_back(EventIds{event, it->second, -1});
            added = true;
        } else {
            row->correlation = it->second;
        }
        if (device) ++k.ac2g_links;
    }
    if (added)
        std::sort(k.ids.begin(), k.ids.end(),
                  [](const EventIds& a, const EventIds& b) { return a.event < b.event; });
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
    // Kineto writes "External id" on CPU ops and "external id" on GPU events.
    if (!getInt(args, "External id", external) && !getInt(args, "external id", external)) return;
    const bool device = t.lane >= 0 && trace_.lanes[t.lane].device;
    if (device && (t.kind == EventKind::Kernel || t.kind == EventKind::Memcpy ||
                   t.kind == EventKind::Memset || t.kind == EventKind::Communication))
        device_work_.emplace_back(index, external);
    else if (!device && (t.kind == EventKind::Operator || t.kind == EventKind::Backward ||
                         t.kind == EventKind::Communication))
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
    if (getString(e, "name") == "[memory]") addDeviceMemory(e, *args, ts);
    if (device_type != 0) return; // CPU only (c10::DeviceType::CPU == 0)
    getInt(*args, "Total Allocated", m.live_bytes);
    getInt(*args, "Bytes", m.delta_bytes);
    pending_memory_.push_back(PendingMemory{laneOf(e, false), trace_.memory.size()});
    trace_.memory.push_back(m);
}

// Every "[memory]" instant (CPU and GPU) for the memory views.
void TraceBuilder::addDeviceMemory(const json& e, const json& args, int64_t ts) {
    DeviceMemoryEvent m;
    m.t_ns = ts;
    m.lane = laneOf(e, false);
    int64_t v = -1;
    if (getInt(args, "Device Type", v)) m.device_type = static_cast<int8_t>(v);
    if (getInt(args, "Device Id", v)) m.device_id = static_cast<int32_t>(v);
    getInt(args, "Addr", m.addr);
    getInt(args, "Bytes", m.bytes);
    getInt(args, "Total Allocated", m.total_allocated);
    getInt(args, "Total Reserved", m.total_reserved);
    trace_.kineto.memory.push_back(m);
}

void TraceBuilder::readDeviceProperties(const json& list) {
    if (!list.is_array()) return;
    for (const json& d : list) {
        DeviceProperties p;
        int64_t v = 0;
        if (getInt(d, "id", v)) p.id = static_cast<int32_t>(v);
        p.name = getString(d, "name");
        getInt(d, "totalGlobalMem", p.total_global_mem);
        if (getInt(d, "computeMajor", v)) p.compute_major = static_cast<int32_t>(v);
        if (getInt(d, "computeMinor", v)) p.compute_minor = static_cast<int32_t>(v);
        if (getInt(d, "numSms", v)) p.num_sms = static_cast<int32_t>(v);
        if (getInt(d, "maxThreadsPerMultiProcessor", v))
            p.max_threads_per_sm = static_cast<int32_t>(v);
        trace_.kineto.devices.push_back(p);
    }
}

void TraceBuilder::meta(const std::string& key, json& value) {
    if (key == "trainscope") {
        trainscope_ = std::move(value);
    } else if (key == "schemaVersion") {
        kineto_ = true;
    } else if (key == "deviceProperties") {
        kineto_ = true;
        readDeviceProperties(value);
    } else if (key == "distributedInfo") {
        trace_.kineto.distributed_info = value.dump();
    } else if (key == "Framework" && value.is_string()) {
        trace_.kineto.framework = value.get<std::string>();
    }
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
    for (const DeviceMemoryEvent& m : trace_.kineto.memory)
        first = std::min(first, m.t_ns);
    if (first == std::numeric_limits<int64_t>::max()) first = 0;
    for (TraceEvent& e : trace_.events)
        e.start_ns -= first;
    for (StepMark& s : trace_.steps)
        s.start_ns -= first, s.end_ns -= first;
    for (MemorySample& m : trace_.memory)
        m.t_ns -= first;
    for (DeviceMemoryEvent& m : trace_.kineto.memory)
        m.t_ns -= first;
    for (PythonFrame& f : trace_.kineto.python_frames)
        f.start_ns -= first;
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
    linkThroughFlows();
    if (!any_category_) trace_.kineto.category.clear();
    rebase();
    std::vector<int32_t> new_index;
    trace_.finalize(&new_index);
    attributeDeviceTime(new_index);
    attributeMemory();
    if (trainscope_.is_object()) {
        for (TraceLane& lane : trace_.lanes) // Trainscope's own lanes: pid 2 is no GPU id
            lane.gpu = -1, lane.stream = -1;
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

// The builder is local: a cancel or an error unwinds it with everything it
// had built, so no half-read trace escapes.
Trace readTrace(TraceSource& source, const std::string& origin, const ReadProgress& progress) {
    TraceBuilder builder;
    const TraceJsonRoot root = streamTraceJson(source, origin, builder, progress);
    Trace trace = builder.finish(origin, root);
    const uint64_t total = source.total();
    if (progress.report && !progress.report(total, total)) throw TraceReadCancelled();
    return trace;
}

} // namespace

Trace parseChromeTrace(const std::string& text, const std::string& origin) {
    const std::unique_ptr<TraceSource> source = traceTextSource(text);
    return readTrace(*source, origin, ReadProgress{});
}

Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress) {
    const std::unique_ptr<TraceSource> source = openTraceFile(path);
    return readTrace(*source, path.string(), progress);
}

} // namespace ts
