#include "profiling/OpCollector.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <ATen/record_function.h>

#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "profiling/CudaOpTimer.h"
#include "profiling/MemoryTracker.h"
#include "trace/OpInputs.h"

namespace ts {

namespace {

// Uncontended in practice (a buffer is shared only with the harvesting
// thread), so a spin lock is cheaper than a mutex on the per-op path.
class SpinLock {
public:
    void lock() {
        while (flag_.test_and_set(std::memory_order_acquire)) {
        }
    }
    void unlock() { flag_.clear(std::memory_order_release); }

private:
    std::atomic_flag flag_ = ATOMIC_FLAG_INIT;
};

struct RawEvent {
    uint32_t name = 0; // local name id
    EventKind kind = EventKind::Operator;
    int32_t shapes = -1, types = -1, args = -1; // local string ids
    int32_t cuda_slot = -1;
    int64_t start = 0, end = -1; // end -1: still open
    int64_t seq = -1, step = -1;
    int64_t alloc = 0, freed = 0;
};

struct RawMemory {
    int64_t t = 0, live = 0, delta = 0;
    int32_t event = -1;
};

struct OpenOp {
    uint64_t handle = 0;
    int32_t event = -1; // -1: dropped over the cap
};

// Interns by content; keys are views into `storage` (a deque never moves them).
template <typename Id> class LocalTable {
public:
    Id intern(std::string_view text) {
        auto it = index_.find(text);
        if (it != index_.end()) return it->second;
        storage_.emplace_back(text);
        const Id id = static_cast<Id>(storage_.size() - 1);
        index_.emplace(storage_.back(), id);
        return id;
    }
    const std::string& at(size_t id) const { return storage_[id]; }
    size_t size() const { return storage_.size(); }
    void clear() {
        index_.clear();
        storage_.clear();
    }

private:
    std::deque<std::string> storage_;
    std::unordered_map<std::string_view, Id> index_;
};

int64_t osThreadId() {
#ifdef __linux__
    return static_cast<int64_t>(::syscall(SYS_gettid));
#else
    return static_cast<int64_t>(std::hash<std::thread::id>()(std::this_thread::get_id()));
#endif
}

struct ThreadBuffer {
    SpinLock lock;
    std::atomic<uint64_t> generation{0}; // 0: retired by a harvest
    int64_t os_tid = osThreadId();
    std::vector<RawEvent> events;
    std::vector<RawMemory> memory;
    std::vector<OpenOp> open;
    LocalTable<uint32_t> names;
    LocalTable<int32_t> strings;
    CudaOpTimer cuda;

    void reset(uint64_t gen) {
        events.clear();
        memory.clear();
        open.clear();
        names.clear();
        strings.clear();
        cuda.reset();
        generation = gen;
    }
    int32_t innermostEvent() const {
        for (auto it = open.rbegin(); it != open.rend(); ++it)
            if (it->event >= 0) return it->event;
        return -1;
    }
};

// Process-wide state read by the callbacks (plain function pointers). Never
// destroyed: callbacks may still run on other threads during exit.
struct CollectorState {
    std::atomic<uint64_t> generation{1};
    std::atomic<bool> collecting{false};
    std::atomic<bool> record_shapes{false};
    std::atomic<bool> cuda{false};
    std::atomic<int64_t> step{-1};
    std::atomic<int64_t> max_events{0};
    std::atomic<int64_t> events{0}, dropped{0};
    std::atomic<int64_t> samples{0}, dropped_samples{0};
    std::atomic<int64_t> main_tid{0};
    std::atomic<const OpCollector*> owner{nullptr};
    std::mutex registry_mutex;
    std::vector<std::shared_ptr<ThreadBuffer>> buffers;
};

CollectorState& state() {
    static CollectorState* s = new CollectorState;
    return *s;
}

thread_local std::shared_ptr<ThreadBuffer> tl_buffer;

// This thread's buffer for the current generation (registered on first use).
ThreadBuffer& threadBuffer(CollectorState& s) {
    if (tl_buffer && tl_buffer->generation == s.generation.load(std::memory_order_acquire))
        return *tl_buffer;
    if (!tl_buffer) tl_buffer = std::make_shared<ThreadBuffer>();
    std::lock_guard<std::mutex> registry(s.registry_mutex);
    std::lock_guard<SpinLock> lock(tl_buffer->lock);
    tl_buffer->reset(s.generation.load());
    s.buffers.push_back(tl_buffer);
    return *tl_buffer;
}

// The buffer only if it belongs to the current generation (end callbacks of
// ops that began before a harvest must not touch the new window).
ThreadBuffer* currentBuffer(CollectorState& s) {
    if (!tl_buffer || tl_buffer->generation != s.generation.load(std::memory_order_acquire))
        return nullptr;
    return tl_buffer.get();
}

EventKind kindOf(const at::RecordFunction& fn, const char* name) {
    switch (fn.scope()) {
    case at::RecordScope::BACKWARD_FUNCTION:
        return EventKind::Backward;
    case at::RecordScope::USER_SCOPE:
        return EventKind::Annotation;
    default:
        break;
    }
    static constexpr std::string_view kEngine = "autograd::engine::evaluate_function";
    return std::string_view(name).substr(0, kEngine.size()) == kEngine ? EventKind::Backward
                                                                       : EventKind::Operator;
}

std::string concreteValue(const c10::IValue& v) {
    if (v.isInt()) return std::to_string(v.toInt());
    if (v.isBool()) return v.toBool() ? "True" : "False";
    if (v.isDouble()) {
        char text[32];
        std::snprintf(text, sizeof(text), "%g", v.toDouble());
        return text;
    }
    if (v.isIntList()) {
        std::string out;
        const auto list = v.toIntVector();
        appendDims(out, list.data(), list.size());
        return out;
    }
    if (v.isBoolList()) {
        std::string out = "[";
        for (bool b : v.toBoolList())
            out += out.size() > 1 ? (b ? ", True" : ", False") : (b ? "True" : "False");
        return out + "]";
    }
    if (v.isString()) return v.toStringRef();
    return {};
}

void appendTensor(const at::Tensor& t, std::string& dims, std::vector<std::string>& types) {
    if (!t.defined()) {
        dims += "[]";
        types.emplace_back();
        return;
    }
    try {
        const auto sizes = t.sizes();
        appendDims(dims, sizes.data(), sizes.size());
    } catch (...) { // tensors without strides/sizes (nested) have no dims to show
        dims += "[]";
    }
    const auto name = t.dtype().name();
    types.emplace_back(name.data(), name.size());
}

// Input dims, dtypes and non-tensor values, interned in the thread's table.
void recordInputs(const at::RecordFunction& fn, ThreadBuffer& b, RawEvent& e) {
    std::string dims = "[";
    std::vector<std::string> types, args;
    bool any_arg = false;
    for (const c10::IValue& v : fn.inputs()) {
        if (dims.size() > 1) dims += ", ";
        if (v.isTensor()) {
            appendTensor(v.toTensor(), dims, types);
            args.emplace_back();
            continue;
        }
        dims += "[]";
        types.emplace_back(v.isTensorList() ? "TensorList" : "");
        args.push_back(concreteValue(v));
        any_arg = any_arg || !args.back().empty();
    }
    dims += ']';
    e.shapes = b.strings.intern(dims);
    e.types = b.strings.intern(formatStringList(types));
    if (any_arg) e.args = b.strings.intern(formatStringList(args));
}

std::unique_ptr<at::ObserverContext> onOpStart(const at::RecordFunction& fn) {
    CollectorState& s = state();
    if (!s.collecting.load(std::memory_order_relaxed)) return nullptr;
    ThreadBuffer& b = threadBuffer(s);
    std::lock_guard<SpinLock> lock(b.lock);
    if (s.events.fetch_add(1, std::memory_order_relaxed) >= s.max_events.load()) {
        s.dropped.fetch_add(1, std::memory_order_relaxed);
        b.open.push_back(OpenOp{fn.handle(), -1});
        return nullptr;
    }
    RawEvent e;
    const char* name = fn.name();
    e.name = b.names.intern(name);
    e.kind = kindOf(fn, name);
    e.seq = fn.seqNr();
    e.step = s.step.load(std::memory_order_relaxed);
    if (fn.needsInputs() && s.record_shapes.load(std::memory_order_relaxed)) recordInputs(fn, b, e);
    if (s.cuda.load(std::memory_order_relaxed) && e.kind != EventKind::Annotation)
        e.cuda_slot = b.cuda.begin();
    // Taken last so that recording the inputs is not counted in the op.
    e.start = OpCollector::now();
    b.open.push_back(OpenOp{fn.handle(), static_cast<int32_t>(b.events.size())});
    b.events.push_back(e);
    return nullptr;
}

void onOpEnd(const at::RecordFunction& fn, at::ObserverContext*) {
    const int64_t t = OpCollector::now();
    ThreadBuffer* b = currentBuffer(state());
    if (!b) return;
    std::lock_guard<SpinLock> lock(b->lock);
    // Normally the top entry; async ops may end out of order.
    for (size_t i = b->open.size(); i-- > 0;) {
        if (b->open[i].handle != fn.handle()) continue;
        const int32_t index = b->open[i].event;
        b->open.erase(b->open.begin() + static_cast<std::ptrdiff_t>(i));
        if (index < 0) return;
        RawEvent& e = b->events[index];
        e.end = t;
        b->cuda.end(e.cuda_slot);
        return;
    }
}

void onMemory(int64_t delta, int64_t live) {
    CollectorState& s = state();
    if (!s.collecting.load(std::memory_order_relaxed)) return;
    const int64_t t = OpCollector::now();
    ThreadBuffer& b = threadBuffer(s);
    std::lock_guard<SpinLock> lock(b.lock);
    const int32_t event = b.innermostEvent();
    if (event >= 0) {
        if (delta > 0)
            b.events[event].alloc += delta;
        else
            b.events[event].freed -= delta;
    }
    if (s.samples.fetch_add(1, std::memory_order_relaxed) >= s.max_events.load()) {
        s.dropped_samples.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    b.memory.push_back(RawMemory{t, live, delta, event});
}

// The training thread, and c10d's worker threads (their events are the
// collectives they carried out: "gloo:all_reduce"), say what they are.
std::string laneName(const ThreadBuffer& b, int64_t main_tid) {
    std::string name = "thread " + std::to_string(b.os_tid);
    if (b.os_tid == main_tid) return name + " (training)";
    if (!b.events.empty()) {
        const std::string& first = b.names.at(b.events.front().name);
        if (first.rfind("gloo:", 0) == 0 || first.rfind("nccl:", 0) == 0)
            return first.substr(0, 4) + " collectives (" + name + ")"; // what first: labels elide
    }
    return name;
}

// Appends one thread's finished events and samples to the trace.
void moveInto(Trace& trace, ThreadBuffer& b, int64_t origin, int64_t main_tid) {
    const int32_t lane = trace.laneFor(b.os_tid, false, laneName(b, main_tid));
    std::vector<uint32_t> names(b.names.size());
    for (size_t i = 0; i < names.size(); ++i)
        names[i] = trace.internName(b.names.at(i));
    std::vector<int32_t> strings(b.strings.size());
    for (size_t i = 0; i < strings.size(); ++i)
        strings[i] = trace.internString(b.strings.at(i));
    auto global = [&](int32_t local) { return local < 0 ? -1 : strings[local]; };

    std::vector<int32_t> index(b.events.size(), -1);
    for (size_t i = 0; i < b.events.size(); ++i) {
        const RawEvent& r = b.events[i];
        if (r.end < 0) continue; // still open at harvest: incomplete, left out
        TraceEvent e;
        e.name = names[r.name];
        e.kind = r.kind;
        e.lane = lane;
        e.start_ns = r.start - origin;
        e.dur_ns = r.end - r.start;
        e.seq = r.seq;
        e.step = r.step;
        e.shapes = global(r.shapes);
        e.types = global(r.types);
        e.args = global(r.args);
        e.alloc_bytes = r.alloc;
        e.free_bytes = r.freed;
        e.device_ns = b.cuda.elapsedNs(r.cuda_slot);
        index[i] = static_cast<int32_t>(trace.events.size());
        trace.events.push_back(e);
    }
    for (const RawMemory& m : b.memory)
        trace.memory.push_back(
            MemorySample{m.t - origin, m.live, m.delta, m.event < 0 ? -1 : index[m.event]});
}

} // namespace

OpCollector::OpCollector(CollectorOptions options, std::shared_ptr<MemoryTracker> memory)
    : options_(options), memory_(std::move(memory)) {}

OpCollector::~OpCollector() {
    detach();
}

int64_t OpCollector::now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

int64_t OpCollector::unixOffsetNs() {
    const int64_t unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    return unix_ns - now();
}

bool OpCollector::attach(std::string* why) {
    if (attached()) return true;
    CollectorState& s = state();
    const OpCollector* expected = nullptr;
    if (!s.owner.compare_exchange_strong(expected, this)) {
        if (why) *why = "another profiling session is already collecting operators";
        return false;
    }
    s.record_shapes = options_.record_shapes;
    s.cuda = options_.cuda;
    s.max_events = options_.max_events > 0 ? options_.max_events : INT64_MAX;
    drain(0); // whatever an earlier collector left behind
    handle_ = at::addGlobalCallback(
        at::RecordFunctionCallback(&onOpStart, &onOpEnd)
            .needsInputs(options_.record_shapes)
            .needsIds(true)
            .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                     at::RecordScope::USER_SCOPE}));
    if (options_.memory && memory_) memory_->setListener(&onMemory);
    return true;
}

void OpCollector::detach() {
    if (!attached()) return;
    CollectorState& s = state();
    s.collecting = false;
    at::removeCallback(handle_);
    handle_ = 0;
    if (options_.memory && memory_) memory_->setListener(nullptr);
    drain(0);
    s.owner = nullptr;
}

// The process-wide state belongs to the attached collector only.
void OpCollector::setCollecting(bool on, int64_t step) {
    if (!attached()) return;
    CollectorState& s = state();
    s.step = step;
    s.collecting = on;
}

void OpCollector::markMainThread() {
    if (attached()) state().main_tid = osThreadId();
}

void OpCollector::clear() {
    if (attached()) drain(0);
}

void OpCollector::addAnnotation(const char* name, int64_t start_ns, int64_t end_ns) {
    CollectorState& s = state();
    if (!attached()) return;
    ThreadBuffer& b = threadBuffer(s);
    std::lock_guard<SpinLock> lock(b.lock);
    if (s.events.fetch_add(1, std::memory_order_relaxed) >= s.max_events.load()) {
        s.dropped.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    RawEvent e;
    e.name = b.names.intern(name);
    e.kind = EventKind::Annotation;
    e.start = start_ns;
    e.end = end_ns;
    e.step = s.step.load(std::memory_order_relaxed);
    b.events.push_back(e);
}

Trace OpCollector::harvest(int64_t origin_ns) {
    return attached() ? drain(origin_ns) : Trace{};
}

Trace OpCollector::drain(int64_t origin_ns) {
    CollectorState& s = state();
    std::vector<std::shared_ptr<ThreadBuffer>> buffers;
    {
        // New generation first: callbacks from here on start fresh buffers.
        std::lock_guard<std::mutex> registry(s.registry_mutex);
        s.generation.fetch_add(1);
        buffers.swap(s.buffers);
    }
    Trace trace;
    trace.source = "trainscope";
    for (auto& b : buffers) {
        std::lock_guard<SpinLock> lock(b->lock);
        moveInto(trace, *b, origin_ns, s.main_tid.load());
        b->reset(0);
    }
    const int64_t dropped = s.dropped.exchange(0);
    const int64_t dropped_samples = s.dropped_samples.exchange(0);
    s.events = 0;
    s.samples = 0;
    const int64_t cap = s.max_events.load();
    if (dropped > 0)
        trace.notes.push_back("truncated to " + std::to_string(cap) +
                              " events (max_trace_events): " + std::to_string(dropped) +
                              " later events were dropped");
    if (dropped_samples > 0)
        trace.notes.push_back("memory track truncated to " + std::to_string(cap) + " samples: " +
                              std::to_string(dropped_samples) + " later samples were dropped");
    return trace;
}

} // namespace ts
