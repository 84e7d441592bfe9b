#include "trace/TraceBuilder.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>

#include "trace/FlopModel.h"
#include "trace/GrowAhead.h"
#include "trace/JsonFields.h"
#include "trace/KinetoNames.h"
#include "trace/LaneIndex.h"
#include "trace/OptimizerSteps.h"
#include "trace/TraceReadError.h"
#include "trace/TraceRules.h"
#include "util/ProcessMemory.h"

namespace ts {

namespace {

using json = nlohmann::json;
using json_fields::find;
using json_fields::getInt;
using json_fields::getString;

// "stream 7" -> 7; a number as is; -1 otherwise.
int64_t streamNumber(const RawId& tid) {
    if (tid.kind == RawId::Kind::Integer) return tid.integer;
    if (tid.kind != RawId::Kind::String) return -1;
    const size_t digit = tid.text.find_first_of("0123456789");
    if (digit == std::string_view::npos) return -1;
    // atoll stops at the first non-digit; the view is not terminated.
    int64_t value = 0;
    for (size_t i = digit; i < tid.text.size() && tid.text[i] >= '0' && tid.text[i] <= '9'; ++i)
        value = static_cast<int64_t>(static_cast<uint64_t>(value) * 10u +
                                     static_cast<uint64_t>(tid.text[i] - '0'));
    return value;
}

float optionalFloat(const RawNumber& n) {
    return n.isNumber() ? static_cast<float>(n.getDouble()) : kNoValue;
}

} // namespace

const std::string& TraceBuilder::laneKey(const RawTraceEvent& e) {
    key_.assign(e.pid.keyText());
    key_ += '|';
    key_.append(e.tid.keyText());
    return key_;
}

std::string TraceBuilder::flowKey(const RawTraceEvent& e, int64_t ts_ns) {
    return laneKey(e) + "|" + std::to_string(ts_ns);
}

KinetoCategory TraceBuilder::categoryOf(std::string_view cat) {
    for (const RecentCategory& r : recent_categories_)
        if (r.known && r.text == cat) return r.category;
    RecentCategory& slot = recent_categories_[next_recent_category_++ % recent_categories_.size()];
    slot.text.assign(cat);
    slot.category = kinetoCategoryFromString(slot.text);
    slot.known = true;
    return slot.category;
}

EventKind TraceBuilder::kindOf(KinetoCategory category, uint32_t name) {
    if (name >= kind_known_.size()) {
        kind_known_.resize(name + 1, false);
        kind_by_name_.resize(name + 1);
    }
    if (!kind_known_[name] || kind_by_name_[name].first != category) {
        kind_by_name_[name] = {category, kindFromCategory(category, trace_.names[name])};
        kind_known_[name] = true;
    }
    return kind_by_name_[name].second;
}

int32_t TraceBuilder::internText(std::string_view text) {
    return trace_.internString(text);
}

int32_t TraceBuilder::laneOf(const RawTraceEvent& e, bool device) {
    const std::string_view pid_text = e.pid.keyText(), tid_text = e.tid.keyText();
    for (const RecentLane& r : recent_lanes_)
        if (r.lane >= 0 && r.tid == tid_text && r.pid == pid_text &&
            (!device || trace_.lanes[size_t(r.lane)].device))
            return r.lane;
    const int32_t lane = findOrAddLane(e, device);
    RecentLane& slot = recent_lanes_[next_recent_++ % recent_lanes_.size()];
    slot.pid.assign(pid_text);
    slot.tid.assign(tid_text);
    slot.lane = lane;
    return lane;
}

TraceLane TraceBuilder::deviceLane(const RawTraceEvent& e, int64_t numeric) const {
    const std::string pid(e.pid.keyText()), tid(e.tid.keyText());
    TraceLane lane{"stream " + tid, numeric, true};
    if (e.pid.kind == RawId::Kind::Integer) { // Kineto: pid = GPU, tid = "stream N"
        lane.gpu = static_cast<int32_t>(e.pid.integer);
        lane.stream = streamNumber(e.tid);
        lane.name =
            "GPU " + pid + " stream " + (lane.stream >= 0 ? std::to_string(lane.stream) : tid);
    }
    return lane;
}

int32_t TraceBuilder::findOrAddLane(const RawTraceEvent& e, bool device) {
    const std::string& key = laneKey(e);
    auto it = lanes_.find(key);
    if (it != lanes_.end()) {
        // A stream whose first event was no device work (a cuda_sync, which
        // Kineto puts on the stream's row too) becomes a device lane with it.
        if (device && !trace_.lanes[size_t(it->second)].device)
            trace_.lanes[size_t(it->second)] = deviceLane(e, trace_.lanes[size_t(it->second)].tid);
        return it->second;
    }
    const std::string pid(e.pid.keyText()), tid(e.tid.keyText());
    int64_t numeric = static_cast<int64_t>(lanes_.size());
    if (e.tid.kind == RawId::Kind::Integer) numeric = e.tid.integer;
    legacy_ = legacy_ || pid == "CPU functions";
    const bool device_lane = device || pid.find("CUDA") != std::string::npos;
    TraceLane made{(device_lane ? "stream " : "thread ") + tid, numeric, device_lane};
    // CUPTI's own work (buffer requests and flushes) comes as pid -1, tid 0:
    // no thread of the program, so say what it is.
    if (!device_lane && e.cat == "overhead") made.name = "profiler overhead (CUPTI)";
    if (device) made = deviceLane(e, numeric);
    trace_.lanes.push_back(made);
    const auto lane = static_cast<int32_t>(trace_.lanes.size() - 1);
    lanes_.emplace(key, lane);
    return lane;
}

void TraceBuilder::add(const RawTraceEvent& e) {
    if (!e.is_object) return void(++malformed_);
    const std::string_view ph = e.ph;
    if (ph == "X") return addComplete(e);
    if (ph == "B" || ph == "E") return void(++unsupported_);
    if ((ph == "i" || ph == "I") && e.name == "[memory]") return addMemory(e);
    if (ph == "C" && e.name == "CPU memory") return addMemory(e);
    if ((ph == "s" || ph == "f") && e.cat == "ac2g") return addFlow(e);
    if (ph == "M" && e.name == "thread_name") {
        if (e.has_args) thread_names_[laneKey(e)] = std::string(e.args.name);
        return;
    }
    if (ph.empty()) ++malformed_;
}

void TraceBuilder::addComplete(const RawTraceEvent& e) {
    int64_t ts = 0, dur = 0;
    if (e.name.empty() || !e.ts_ns.getInt(ts)) return void(++malformed_);
    e.dur_ns.getInt(dur);
    const std::string_view cat = e.cat;
    if (cat == "python_function") return notePythonFrame(e, ts, dur);
    kineto_ = kineto_ || cat == "cpu_op";
    const KinetoCategory category = categoryOf(cat);
    // Kineto repeats each ProfilerStep#N as a gpu_user_annotation on the GPU
    // stream (PyTorch 2.x): the step is the host's, the copy is no second step.
    const bool step_name = e.name.substr(0, 13) == "ProfilerStep#";
    if (cat == "trainscope_step" || (step_name && !isDeviceCategory(category))) {
        int64_t step = -1;
        if (!e.args[RawArg::Step].getInt(step)) {
            name_.assign(e.name); // terminated, for atoll
            step = name_.size() >= 13 ? std::atoll(name_.c_str() + 13) : 0;
        }
        trace_.steps.push_back(StepMark{step, ts, ts + std::max<int64_t>(0, dur)});
        if (cat == "trainscope_step") return; // Trainscope's own steps track
    }
    any_category_ = any_category_ || category != KinetoCategory::None;
    TraceEvent t;
    t.name = trace_.internName(e.name);
    t.kind = e.args.kind.empty() ? kindOf(category, t.name)
                                 : eventKindFromString(std::string(e.args.kind));
    t.lane = laneOf(e, isDeviceCategory(category));
    t.start_ns = ts;
    t.dur_ns = std::max<int64_t>(0, dur);
    if (e.has_args) readArgs(e.args, t);
    appendEvent(e, t, category);
}

// Ids, launch properties and call stacks go into the side tables, keyed by
// the index the event gets here. Every event write of the reader is here.
void TraceBuilder::appendEvent(const RawTraceEvent& e, const TraceEvent& t,
                               KinetoCategory category) {
    const size_t count = trace_.events.size();
    if (count >= static_cast<size_t>(std::numeric_limits<int32_t>::max()))
        throw TraceReadError(origin_ + ": more than 2147483647 trace events; Trainscope numbers "
                                       "events with 32-bit indices. Record a shorter window.");
    if (t.lane > 0xFFFF)
        throw TraceReadError(origin_ + ": more than 65536 threads and streams; Trainscope " +
                             "numbers them with 16-bit indices.");
    const auto index = static_cast<int32_t>(count);
    const RawTraceArgs& args = e.args;
    KinetoExtras extras;
    extras.category = category;
    args[RawArg::Correlation].getInt(extras.correlation);
    if (!args[RawArg::ExternalIdUpper].getInt(extras.external_id))
        args[RawArg::ExternalIdLower].getInt(extras.external_id);
    const bool linked = launchesDeviceWork(category) || category == KinetoCategory::Runtime ||
                        category == KinetoCategory::Driver;
    if (linked && extras.correlation < 0) uncorrelated_.emplace_back(index, flowKey(e, t.start_ns));
    if (e.has_args && launchesDeviceWork(category)) {
        DeviceLaunch d;
        int64_t v = -1;
        if (args[RawArg::Device].getInt(v)) d.device = static_cast<int32_t>(v);
        if (args[RawArg::Stream].getInt(v)) d.stream = static_cast<int32_t>(v);
        d.grid = args.grid;
        d.block = args.block;
        if (args[RawArg::Registers].getInt(v)) d.registers = static_cast<int32_t>(v);
        if (args[RawArg::SharedMemory].getInt(v)) d.shared_memory = static_cast<int32_t>(v);
        d.blocks_per_sm = optionalFloat(args[RawArg::BlocksPerSm]);
        d.occupancy = optionalFloat(args[RawArg::Occupancy]);
        extras.launch = d;
    }
    if (SyncWait w; args[RawArg::WaitOnStream].getInt(w.stream)) {
        args[RawArg::WaitOnRecord].getInt(w.record_correlation);
        extras.sync_wait = w;
    }
    if (args.call_stack) {
        extras.call_stack = internText(*args.call_stack);
        any_call_stack_ = true;
    }
    if (CollectiveTag tag; args[RawArg::CollectiveSeq].getInt(tag.seq)) {
        tag.event = index;
        if (!args.process_group.empty()) tag.group = internText(args.process_group);
        trace_.kineto.collective_tags.push_back(tag);
    }
    trace_.events.growAhead(growth_);
    trace_.events.push_back(t, extras);
}

// python_function events are not events of the trace (they would double the
// operator tree); their module ids are kept for the module view.
void TraceBuilder::notePythonFrame(const RawTraceEvent& e, int64_t ts, int64_t dur) {
    ++python_skipped_;
    PythonFrame f;
    f.name = static_cast<int32_t>(trace_.internName(e.name));
    f.lane = laneOf(e, false);
    f.start_ns = ts;
    f.dur_ns = std::max<int64_t>(0, dur);
    e.args[RawArg::PythonId].getInt(f.python_id);
    e.args[RawArg::PythonParentId].getInt(f.parent_id);
    e.args[RawArg::PythonModuleId].getInt(f.module_id);
    trace_.kineto.python_frames.push_back(f);
}

namespace {

// A frame of the Python source ("torch/nn/modules/linear.py(125): forward"),
// not a module ("nn.Module: Linear_0") or a built-in ("<built-in method ...>"):
// the frames a Kineto "Call stack" field held.
bool isSourceFrame(std::string_view name) {
    const size_t close = name.find("): ");
    return !name.empty() && name.front() != '<' && close != std::string_view::npos &&
           name.rfind('(', close) != std::string_view::npos;
}

} // namespace

// PyTorch 2.x writes no "Call stack" field on operators: with_stack=True
// records the Python frames as python_function events instead. An operator's
// stack is then the chain of source frames open on its thread when it starts,
// innermost first and joined by ';', as the field held it. The chain under a
// frame never changes, so each frame's stack is built once.
void TraceBuilder::stacksFromPythonFrames() {
    const std::vector<PythonFrame>& frames = trace_.kineto.python_frames;
    if (any_call_stack_ || frames.empty()) return;
    std::vector<int32_t> order;
    for (size_t f = 0; f < frames.size(); ++f)
        if (isSourceFrame(trace_.names[size_t(frames[f].name)])) order.push_back(int32_t(f));
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const PythonFrame &x = frames[size_t(a)], &y = frames[size_t(b)];
        if (x.lane != y.lane) return x.lane < y.lane;
        if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
        return x.dur_ns > y.dur_ns; // the enclosing frame first
    });
    const EventStore& events = trace_.events;
    std::vector<int32_t> ops;
    for (size_t i = 0; i < events.size(); ++i)
        if (events.core(i).category == KinetoCategory::Operator) ops.push_back(int32_t(i));
    std::sort(ops.begin(), ops.end(), [&](int32_t a, int32_t b) {
        const EventCore &x = events.core(size_t(a)), &y = events.core(size_t(b));
        return x.lane != y.lane ? x.lane < y.lane : x.start_ns < y.start_ns;
    });
    auto endOf = [&](int32_t f) { return frames[size_t(f)].start_ns + frames[size_t(f)].dur_ns; };
    std::vector<int32_t> open; // frames open at the sweep's time, outermost first
    std::vector<int32_t> stack_of(frames.size(), -1); // by innermost frame: interned stack
    std::string text;
    size_t next = 0;
    int32_t lane = -1;
    for (const int32_t op : ops) {
        const EventCore& e = events.core(size_t(op));
        if (e.lane != lane) {
            lane = e.lane;
            open.clear();
            while (next < order.size() && frames[size_t(order[next])].lane < lane)
                ++next;
        }
        while (next < order.size() && frames[size_t(order[next])].lane == lane &&
               frames[size_t(order[next])].start_ns <= e.start_ns) {
            const int32_t f = order[next++];
            while (!open.empty() && endOf(open.back()) <= frames[size_t(f)].start_ns)
                open.pop_back();
            open.push_back(f);
        }
        while (!open.empty() && endOf(open.back()) <= e.start_ns)
            open.pop_back();
        if (open.empty()) continue;
        int32_t& stack = stack_of[size_t(open.back())];
        if (stack < 0) {
            text.clear();
            for (auto f = open.rbegin(); f != open.rend(); ++f) {
                if (!text.empty()) text += ';';
                text += trace_.names[size_t(frames[size_t(*f)].name)];
            }
            stack = internText(text);
        }
        trace_.events.setCallStack(size_t(op), stack);
    }
}

void TraceBuilder::addFlow(const RawTraceEvent& e) {
    int64_t ts = 0, id = -1;
    if (!e.ts_ns.getInt(ts) || !e.id.getInt(id)) return;
    (e.ph == "s" ? flow_start_ : flow_end_)[flowKey(e, ts)] = id;
}

void TraceBuilder::readArgs(const RawTraceArgs& args, TraceEvent& t) {
    const int32_t index = static_cast<int32_t>(trace_.events.size());
    for (const auto* dims : {&args.input_dims_upper, &args.input_dims_lower})
        if (*dims) t.shapes = internText(**dims);
    if (args.input_type) t.types = internText(*args.input_type);
    if (args.concrete_inputs) t.args = internText(*args.concrete_inputs);
    args[RawArg::Sequence].getInt(t.seq);
    args[RawArg::Step].getInt(t.step);
    args[RawArg::DeviceNs].getInt(t.device_ns);
    args[RawArg::AllocBytes].getInt(t.alloc_bytes);
    args[RawArg::FreeBytes].getInt(t.free_bytes);
    t.flops = args[RawArg::Flops].getDouble();
    t.bytes = args[RawArg::Bytes].getDouble();
    t.gbps = args[RawArg::Bandwidth].getDouble();
    have_flops_ = have_flops_ || t.flops > 0;
    int64_t external = -1;
    // Kineto writes "External id" on CPU ops and "external id" on GPU events.
    if (!args[RawArg::ExternalIdUpper].getInt(external) &&
        !args[RawArg::ExternalIdLower].getInt(external))
        return;
    const bool device = t.lane >= 0 && trace_.lanes[t.lane].device;
    if (device && (t.kind == EventKind::Kernel || t.kind == EventKind::Memcpy ||
                   t.kind == EventKind::Memset || t.kind == EventKind::Communication)) {
        growAhead(device_work_, growth_);
        device_work_.emplace_back(index, external);
    }
}

void TraceBuilder::inputRead(uint64_t done, uint64_t total) {
    growth_ = done > 0 && total > done ? static_cast<double>(total) / static_cast<double>(done) : 0;
}

void TraceBuilder::addMemory(const RawTraceEvent& e) {
    int64_t ts = 0;
    if (!e.has_args || !e.ts_ns.getInt(ts)) return void(++malformed_);
    const RawTraceArgs& args = e.args;
    MemorySample m;
    m.t_ns = ts;
    if (args[RawArg::LiveBytes].getInt(m.live_bytes)) { // Trainscope's counter track
        if (counter_samples_++ == 0) instants_before_counters_ = trace_.kineto.memory.size();
        m.delta_bytes = any_sample_ ? m.live_bytes - last_live_bytes_ : 0;
        last_live_bytes_ = m.live_bytes, any_sample_ = true;
        growAhead(trace_.memory, growth_);
        trace_.memory.push_back(m);
        return;
    }
    // A "CPU memory" counter without its value is no memory record.
    if (e.name != "[memory]") return void(++malformed_);
    addDeviceMemory(e, ts);
    const DeviceMemoryEvent& added = trace_.kineto.memory.back();
    if (!added.countsTowardsOp()) return;
    last_live_bytes_ =
        added.flags & DeviceMemoryEvent::kHasTotalAllocated ? added.total_allocated : 0;
    any_sample_ = true;
    if (counter_samples_ > 0)
        late_instants_.push_back(LateInstant{static_cast<uint32_t>(trace_.kineto.memory.size() - 1),
                                             static_cast<uint32_t>(counter_samples_)});
}

// Every "[memory]" instant (CPU and GPU) for the memory views.
void TraceBuilder::addDeviceMemory(const RawTraceEvent& e, int64_t ts) {
    const RawTraceArgs& args = e.args;
    DeviceMemoryEvent m;
    m.t_ns = ts;
    m.lane = laneOf(e, false);
    int64_t v = -1;
    if (args[RawArg::DeviceType].getInt(v)) m.device_type = static_cast<int8_t>(v);
    if (args[RawArg::DeviceId].getInt(v) && v >= 0 && v <= INT16_MAX)
        m.device_id = static_cast<int16_t>(v);
    args[RawArg::Addr].getInt(m.addr);
    args[RawArg::MemBytes].getInt(m.bytes);
    if (args[RawArg::TotalAllocated].getInt(m.total_allocated))
        m.flags |= DeviceMemoryEvent::kHasTotalAllocated;
    args[RawArg::TotalReserved].getInt(m.total_reserved);
    // CPU only (c10::DeviceType::CPU == 0; no "Device Type" reads as CPU).
    int64_t device_type = 0;
    args[RawArg::DeviceType].getInt(device_type);
    if (device_type == 0) m.flags |= DeviceMemoryEvent::kCountsTowardsOp;
    growAhead(trace_.kineto.memory, growth_);
    trace_.kineto.memory.push_back(m);
}

// Newer Kineto traces link a runtime call to its device work with ac2g
// flows as well as with args.correlation; when the argument is missing the
// flow supplies it.
void TraceBuilder::linkThroughFlows() {
    EventStore& events = trace_.events;
    for (const auto& [event, key] : uncorrelated_) {
        const bool device = launchesDeviceWork(events.category(size_t(event)));
        const auto& flows = device ? flow_end_ : flow_start_;
        auto it = flows.find(key);
        if (it == flows.end()) continue;
        const std::optional<EventIds> ids = events.ids(size_t(event));
        events.setIds(size_t(event), it->second, ids ? ids->external_id : -1);
        if (device) ++trace_.kineto.ac2g_links;
    }
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
// ancestors (TraceEvent::device_ns includes children, like dur_ns). The op
// of an External id is the innermost one, the last in file order. The ops
// are found after the read, from the store's External id column, so that a
// trace without device work pays nothing for them (a hash map of every op
// cost ~40 B per event at the reader's peak).
void TraceBuilder::attributeDeviceTime(const std::vector<int32_t>& new_index) {
    if (device_work_.empty()) return;
    const EventStore& events = trace_.events;
    std::vector<std::pair<int64_t, int32_t>> ops; // (External id, file-order index)
    for (size_t old = 0; old < new_index.size(); ++old) {
        const auto i = size_t(new_index[old]);
        const EventCore& c = events.core(i);
        if (trace_.lanes[c.lane].device ||
            (c.kind != EventKind::Operator && c.kind != EventKind::Backward &&
             c.kind != EventKind::Communication))
            continue;
        if (const std::optional<EventIds> ids = events.ids(i); ids && ids->external_id != -1)
            ops.emplace_back(ids->external_id, static_cast<int32_t>(old));
    }
    std::sort(ops.begin(), ops.end());
    for (const auto& [kernel, external] : device_work_) {
        auto after = std::upper_bound(ops.begin(), ops.end(), std::make_pair(external, INT32_MAX));
        if (after == ops.begin() || std::prev(after)->first != external) continue;
        const int64_t dur = events.core(size_t(new_index[kernel])).dur_ns;
        for (int32_t op = new_index[size_t(std::prev(after)->second)]; op >= 0;
             op = events.core(size_t(op)).parent)
            trace_.events.addDeviceNs(size_t(op), dur);
    }
}

std::vector<std::pair<uint32_t, uint32_t>> TraceBuilder::memorySamples() {
    std::vector<std::pair<uint32_t, uint32_t>> sample_of_instant;
    if (counter_samples_ == 0) return sample_of_instant;
    const std::vector<DeviceMemoryEvent>& instants = trace_.kineto.memory;
    // The CPU instants in file order with the counter samples before each.
    std::vector<LateInstant> order;
    for (size_t i = 0; i < instants_before_counters_; ++i)
        if (instants[i].countsTowardsOp()) order.push_back(LateInstant{uint32_t(i), 0});
    order.insert(order.end(), late_instants_.begin(), late_instants_.end());
    std::vector<MemorySample> merged;
    merged.reserve(trace_.memory.size() + order.size());
    std::vector<uint32_t> position(order.size());
    size_t counter = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        while (counter < order[k].samples_before)
            merged.push_back(trace_.memory[counter++]);
        const DeviceMemoryEvent& d = instants[order[k].instant];
        MemorySample m;
        m.t_ns = d.t_ns;
        m.live_bytes = d.flags & DeviceMemoryEvent::kHasTotalAllocated ? d.total_allocated : 0;
        m.delta_bytes = d.bytes;
        position[k] = static_cast<uint32_t>(merged.size());
        merged.push_back(m);
    }
    while (counter < trace_.memory.size())
        merged.push_back(trace_.memory[counter++]);
    std::vector<uint32_t> sorted(merged.size());
    for (size_t i = 0; i < sorted.size(); ++i)
        sorted[i] = static_cast<uint32_t>(i);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](uint32_t a, uint32_t b) { return merged[a].t_ns < merged[b].t_ns; });
    std::vector<uint32_t> sorted_at(merged.size());
    trace_.memory.clear();
    trace_.memory.reserve(merged.size());
    for (size_t i = 0; i < sorted.size(); ++i) {
        sorted_at[sorted[i]] = static_cast<uint32_t>(i);
        trace_.memory.push_back(merged[sorted[i]]);
    }
    for (size_t k = 0; k < order.size(); ++k)
        sample_of_instant.emplace_back(order[k].instant, sorted_at[position[k]]);
    return sample_of_instant;
}

// The ops' bytes are not attributed here (analysis/OpMemory.h does it when a
// view asks); a kept sample names its op.
void TraceBuilder::sampleEvents(
    const std::vector<std::pair<uint32_t, uint32_t>>& sample_of_instant) {
    if (sample_of_instant.empty()) return;
    const LaneIndex lanes(trace_);
    for (const auto& [instant, sample] : sample_of_instant) {
        const DeviceMemoryEvent& d = trace_.kineto.memory[instant];
        trace_.memory[sample].event = lanes.innermostAt(d.lane, d.t_ns);
    }
}

// Times relative to the earliest one; origin_ns keeps the absolute start.
void TraceBuilder::rebase() {
    int64_t first = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < trace_.events.size(); ++i)
        first = std::min(first, trace_.events.core(i).start_ns);
    for (const StepMark& s : trace_.steps)
        first = std::min(first, s.start_ns);
    for (const MemorySample& m : trace_.memory)
        first = std::min(first, m.t_ns);
    for (const DeviceMemoryEvent& m : trace_.kineto.memory)
        first = std::min(first, m.t_ns);
    if (first == std::numeric_limits<int64_t>::max()) first = 0;
    // A time at the int64 limit (a fuzzed "ts": 1e300) has no negation:
    // such a trace keeps its times as read.
    if (first == std::numeric_limits<int64_t>::min()) first = 0;
    for (size_t i = 0; i < trace_.events.size(); ++i)
        trace_.events.shiftStart(i, -first);
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

Trace TraceBuilder::finish(TraceJsonRoot root) {
    const std::string& origin = origin_;
    if (root == TraceJsonRoot::Other)
        throw TraceReadError(origin + ": not a Chrome trace: expected a JSON list of trace events "
                                      "or an object with \"traceEvents\".");
    if (trace_.events.empty() && trace_.steps.empty())
        throw TraceReadError(origin +
                             ": no trace events found (the event list is empty, or none of its "
                             "elements is an event with \"ph\", \"name\" and a numeric "
                             "\"ts\").");
    for (auto& [key, lane] : lanes_) {
        auto it = thread_names_.find(key);
        if (it != thread_names_.end() && !it->second.empty()) trace_.lanes[lane].name = it->second;
    }
    linkThroughFlows();
    if (!any_category_) trace_.events.clearCategories();
    deriveOptimizerSteps(trace_); // no ProfilerStep#N: the steps between optimizer steps
    rebase();
    stacksFromPythonFrames();
    // Kineto's CPU [memory] instants are kept once, in kineto.memory (which
    // the memory views, the timeline and analysis/OpMemory read): no
    // MemorySample is made for them unless the trace keeps samples.
    const std::vector<std::pair<uint32_t, uint32_t>> sample_of_instant = memorySamples();
    std::vector<int32_t> new_index;
    trace_.finalize(&new_index);
    attributeDeviceTime(new_index);
    sampleEvents(sample_of_instant);
    // PyTorch 2.x writes no FLOPs even with with_flops (1.13 wrote them for
    // a few ops): the Roofline and the GFLOP/s columns then come from the
    // recorded input shapes, by the model Trainscope's own profiler uses.
    const size_t estimated_flops =
        trainscope_.is_object() || have_flops_ ? 0 : annotateCosts(trace_);
    new_index = {};
    device_work_ = {};
    late_instants_ = {};
    trace_.events.shrinkToFit();
    shrinkIfRoomy(trace_.memory);
    shrinkIfRoomy(trace_.kineto.memory);
    // Finalizing copied columns and freed the old ones; glibc keeps such
    // freed blocks in its heap, where the analysis that follows would count
    // them twice in the peak.
    returnFreedMemory();
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
        if (estimated_flops > 0)
            trace_.notes.push_back("FLOPs estimated from the recorded input shapes of " +
                                   std::to_string(estimated_flops) +
                                   " operators (the trace has none)");
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

} // namespace ts
