#pragma once
// The event table of a Trace, stored compactly (issue #14: <= 64 bytes per
// event on Kineto traces). Every pass and every timeline frame reads the
// 32-byte EventCore; the rest of an event lives in dense 4-byte columns and
// in sparse tables that only the events using them pay for:
//   core_       start, dur, name, parent, lane, depth, kind, category, step
//   extra_      -1 none; >= 0 a row of op_; <= -2 launch config -2 - extra
//   correlation_, external_   Kineto ids; kOverflow -> overflow_ map
//   wide_steps_ steps past 65,534 (only traces with that many steps)
//   op_         input signature, seq, link, device time, rare row
//   signatures_ interned (shapes, types, args): ops repeat their inputs
//   rare_       call stack, launch, cost and memory rows (with_stack traces,
//               the rare device event with op fields, own profiler ops)
//   launches_   interned kernel/memcpy/memset launch configs (few distinct)
//   costs_      flops, bytes, bandwidth, interned (FLOPs of own profiler or
//               estimated on reading; a copy's GB/s)
//   memory_     CPU bytes allocated and freed (profile_memory traces)
// TraceEvent stays the wide value type: operator[] and iteration build one
// by value, so `const TraceEvent& e = trace.events[i]` keeps working (the
// temporary lives as long as the reference). Writers use push_back, set,
// edit and the small mutators below.
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/KinetoInfo.h"
#include "trace/TraceEvent.h"

namespace ts {

struct EventCore {
    int64_t start_ns = 0; // relative to Trace::origin_ns
    int64_t dur_ns = 0;
    uint32_t name = 0;   // index into Trace::names
    int32_t parent = -1; // enclosing event on the same lane, -1 at top level
    uint16_t lane = 0;   // index into Trace::lanes (at most 65536 lanes)
    int16_t depth = 0;   // nesting depth on its lane, saturates at INT16_MAX
    EventKind kind = EventKind::Operator;
    KinetoCategory category = KinetoCategory::None;
    uint16_t step_code = 0; // 0: step -1; 1..0xFFFE: step + 1; 0xFFFF: in the overflow map

    int64_t end_ns() const { return start_ns + dur_ns; }
};
static_assert(sizeof(EventCore) == 32, "EventCore is the hot record: keep it at 32 bytes");

// The inputs of an op as Trace::strings indices, -1 where absent. Interned:
// a training step calls the same ops on the same shapes again and again.
struct OpSignature {
    int32_t shapes = -1, types = -1, args = -1;
};
static_assert(sizeof(OpSignature) == 12);

// Op fields of the events that have any (CPU ops of Kineto traces, own
// profiler ops). Device time lives here, not with the costs: on GPU traces
// most CPU ops launch kernels, and a cost row for each cost 52 bytes.
struct EventOpFields {
    int32_t signature = -1; // row of EventStore's signatures
    int32_t seq = -1;       // kOverflow: in the overflow map
    int32_t link = -1;
    int32_t device_ns = 0; // kOverflow: in the overflow map
    int32_t rare = -1;     // row of EventStore's rare fields; <= -2: no row, cost -2 - rare
};
static_assert(sizeof(EventOpFields) == 20);

// Fields few events of a Kineto trace have: a second level, so that the
// op rows stay small.
struct EventRareFields {
    int32_t call_stack = -1; // Trace::strings
    int32_t launch = -1;     // launch config, for the rare device event with op fields
    int32_t cost = -1;       // row of costs
    int32_t memory = -1;     // row of memory
};
static_assert(sizeof(EventRareFields) == 16);

// DeviceLaunch without its event: interned, since configs repeat.
struct LaunchConfig {
    int32_t device = -1, stream = -1;
    std::array<int32_t, 3> grid{-1, -1, -1};
    std::array<int32_t, 3> block{-1, -1, -1};
    int32_t registers = -1, shared_memory = -1;
    float blocks_per_sm = kNoValue, occupancy = kNoValue;
};
static_assert(sizeof(LaunchConfig) == 48);

struct EventCost {
    double flops = 0, bytes = 0;
    double gbps = 0; // a copy's or set's bandwidth (TraceEvent::gbps)
};
static_assert(sizeof(EventCost) == 24);

struct EventMemory {
    int64_t alloc_bytes = 0, free_bytes = 0;
};
static_assert(sizeof(EventMemory) == 16);

// What a Kineto event carries beyond TraceEvent (reader input).
struct KinetoExtras {
    KinetoCategory category = KinetoCategory::None;
    int64_t correlation = -1, external_id = -1;
    std::optional<DeviceLaunch> launch; // its `event` is ignored
    int32_t call_stack = -1;            // Trace::strings
    std::optional<SyncWait> sync_wait;  // cuda_sync events that wait on a CUDA event
};

// One value of an overflow map: (event, value) rows sorted by event.
struct OverflowValue {
    int32_t event;
    int32_t field; // EventStore::OverflowField
    int64_t value;
};

class EventStore {
public:
    static constexpr int32_t kOverflow = INT32_MIN;
    // WaitStream, WaitRecord: SyncWait of the few cuda_sync events (no column).
    enum OverflowField : int32_t {
        Correlation,
        External,
        Seq,
        Step,
        DeviceNs,
        WaitStream,
        WaitRecord
    };
    static constexpr int32_t kOverflowFields = 8; // key = event * 8 + field

    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = TraceEvent;
        using difference_type = std::ptrdiff_t;
        using reference = TraceEvent;
        struct pointer {
            TraceEvent e;
            const TraceEvent* operator->() const { return &e; }
        };
        iterator() = default;
        iterator(const EventStore* s, size_t i) : s_(s), i_(static_cast<std::ptrdiff_t>(i)) {}
        TraceEvent operator*() const { return (*s_)[static_cast<size_t>(i_)]; }
        pointer operator->() const { return pointer{**this}; }
        TraceEvent operator[](difference_type n) const { return *(*this + n); }
        iterator& operator++() { return ++i_, *this; }
        iterator operator++(int) { return iterator(s_, size_t(i_++)); }
        iterator& operator--() { return --i_, *this; }
        iterator operator--(int) { return iterator(s_, size_t(i_--)); }
        iterator& operator+=(difference_type n) { return i_ += n, *this; }
        iterator& operator-=(difference_type n) { return i_ -= n, *this; }
        iterator operator+(difference_type n) const { return iterator(s_, size_t(i_ + n)); }
        friend iterator operator+(difference_type n, iterator it) { return it + n; }
        iterator operator-(difference_type n) const { return iterator(s_, size_t(i_ - n)); }
        difference_type operator-(const iterator& o) const { return i_ - o.i_; }
        bool operator==(const iterator& o) const { return i_ == o.i_; }
        bool operator!=(const iterator& o) const { return i_ != o.i_; }
        bool operator<(const iterator& o) const { return i_ < o.i_; }
        bool operator>(const iterator& o) const { return i_ > o.i_; }
        bool operator<=(const iterator& o) const { return i_ <= o.i_; }
        bool operator>=(const iterator& o) const { return i_ >= o.i_; }

    private:
        const EventStore* s_ = nullptr;
        std::ptrdiff_t i_ = 0;
    };
    using const_iterator = iterator;
    using value_type = TraceEvent;
    using size_type = size_t;

    size_t size() const { return core_.size(); }
    bool empty() const { return core_.empty(); }
    const EventCore& core(size_t i) const { return core_[i]; }
    TraceEvent operator[](size_t i) const;
    TraceEvent front() const { return (*this)[0]; }
    TraceEvent back() const { return (*this)[size() - 1]; }
    iterator begin() const { return iterator(this, 0); }
    iterator end() const { return iterator(this, size()); }

    void reserve(size_t n);
    // Before an append by a reader that knows the rest of its input: full
    // columns grow by `scale` (trace/GrowAhead.h) instead of doubling.
    void growAhead(double scale);
    void clear() { *this = EventStore(); }
    // Throws std::out_of_range for a lane outside [0, 65535].
    void push_back(const TraceEvent& e, const KinetoExtras& kineto = {});
    // Replaces the TraceEvent fields of event i (its Kineto extras stay).
    void set(size_t i, const TraceEvent& e);
    // Read, change, write back: store.edit(i, [](TraceEvent& e) { e.flops = 1; }).
    template <typename Change> void edit(size_t i, Change&& change) {
        TraceEvent e = (*this)[i];
        change(e);
        set(i, e);
    }

    // Single fields without building a TraceEvent.
    int64_t step(size_t i) const;
    void setStep(size_t i, int64_t step);
    int64_t seq(size_t i) const;
    int32_t link(size_t i) const;
    void setLink(size_t i, int32_t link);
    void setNesting(size_t i, int32_t parent, int16_t depth);
    void shiftStart(size_t i, int64_t delta) { core_[i].start_ns += delta; }
    void addDeviceNs(size_t i, int64_t ns);
    void addAllocBytes(size_t i, int64_t bytes);
    void addFreeBytes(size_t i, int64_t bytes);

    // Kineto side data, by event (what KinetoInfo's side tables held).
    KinetoCategory category(size_t i) const { return core_[i].category; }
    // Whether any event has a category (false for Trainscope's own traces).
    bool hasCategories() const { return categorized_; }
    void clearCategories();
    // The event's ids when it has a correlation or an External id.
    std::optional<EventIds> ids(size_t i) const;
    void setIds(size_t i, int64_t correlation, int64_t external_id);
    std::optional<DeviceLaunch> launch(size_t i) const;
    std::optional<SyncWait> syncWait(size_t i) const;
    bool hasLaunches() const { return !launches_.empty(); }
    int32_t callStack(size_t i) const; // Trace::strings index, -1 none
    void setCallStack(size_t i, int32_t call_stack);
    int32_t shapes(size_t i) const; // of the input shapes: Trace::strings index, -1 none
    // The row of the event's interned input signature, -1 none: ops with the
    // same row and name had the same inputs.
    int32_t signatureRow(size_t i) const;
    const OpSignature& signatureAt(int32_t row) const { return signatures_[size_t(row)]; }
    // Whether any event has FLOPs (a read of the cost rows alone).
    bool anyFlops() const;

    // new_index[i] is the new position of the event at i (a permutation).
    void permute(const std::vector<int32_t>& new_index);
    // Gives back the spare capacity of every column (after the reader's
    // last write: device time and memory attribution add rows).
    void shrinkToFit();
    // Bytes held, by capacity (the figure `trace-stats --timings` prints).
    size_t memoryBytes() const;
    // The same, by part: which column a trace pays for.
    struct MemoryParts {
        size_t core = 0, ids = 0, op = 0, signatures = 0, rare = 0, launches = 0, costs = 0,
               memory = 0, maps = 0;
    };
    MemoryParts memoryParts() const;

    // The columns, for the trace index (written and read as raw sections).
    struct Columns {
        std::vector<EventCore> core;
        std::vector<int32_t> extra, correlation, external;
        std::vector<EventOpFields> op;
        std::vector<OpSignature> signatures;
        std::vector<EventRareFields> rare;
        std::vector<LaunchConfig> launches;
        std::vector<EventCost> costs;
        std::vector<EventMemory> memory;
        std::vector<OverflowValue> overflow; // sorted by (event, field)
    };
    // Read-only view of the columns (no copy but the rare overflow values).
    struct ColumnRefs {
        const std::vector<EventCore>& core;
        const std::vector<int32_t>&extra, &correlation, &external;
        const std::vector<EventOpFields>& op;
        const std::vector<OpSignature>& signatures;
        const std::vector<EventRareFields>& rare;
        const std::vector<LaunchConfig>& launches;
        const std::vector<EventCost>& costs;
        const std::vector<EventMemory>& memory;
        std::vector<OverflowValue> overflow; // sorted by (event, field)

        // A copy to change (tests make unsound stores from one).
        Columns copy() const {
            return Columns{core, extra,    correlation, external, op,      signatures,
                           rare, launches, costs,       memory,   overflow};
        }
    };
    ColumnRefs columns() const;
    static EventStore fromColumns(Columns columns);
    // Index problems of the columns ("" if sound), for TraceIndexCheck.
    std::string columnsProblem(size_t strings) const;

private:
    EventOpFields* opRow(size_t i) { return extra_[i] >= 0 ? &op_[size_t(extra_[i])] : nullptr; }
    const EventOpFields* opRow(size_t i) const {
        return extra_[i] >= 0 ? &op_[size_t(extra_[i])] : nullptr;
    }
    const EventRareFields* rareRow(size_t i) const {
        const EventOpFields* op = opRow(i);
        return op && op->rare >= 0 ? &rare_[size_t(op->rare)] : nullptr;
    }
    EventOpFields& makeOpRow(size_t i);
    EventRareFields& makeRareRow(size_t i);
    const EventCost* cost(size_t i) const;
    int32_t costId(const EventOpFields& op) const; // -1 none
    EventMemory& makeMemory(size_t i);
    const EventMemory* memory(size_t i) const;
    int32_t internSignature(const OpSignature& signature);
    int32_t launchId(size_t i) const;
    int32_t internLaunch(const DeviceLaunch& d);
    int32_t packed(size_t i, OverflowField field, int64_t value);
    int64_t unpacked(size_t i, OverflowField field, int32_t stored) const;
    void setOpFields(size_t i, const TraceEvent& e);
    void setCosts(size_t i, const TraceEvent& e);
    void setMemory(size_t i, const TraceEvent& e);

    std::vector<EventCore> core_;
    std::vector<int32_t> extra_, correlation_, external_;
    std::vector<EventOpFields> op_;
    std::vector<OpSignature> signatures_;
    std::vector<EventRareFields> rare_;
    std::vector<LaunchConfig> launches_;
    std::vector<EventCost> costs_;
    std::vector<EventMemory> memory_;
    // Values that do not fit their column, key event * kOverflowFields + field.
    std::unordered_map<int64_t, int64_t> overflow_;
    // Steps past 0xFFFE (step_code kStepOverflow), one per event, allocated
    // by the first such step: a long trace has most events in those steps,
    // and a hash node each cost 8 bytes per event at 100 M events. Steps
    // outside int32 (never seen) stay in overflow_.
    std::vector<int32_t> wide_steps_;
    // Building aids, lazily rebuilt: record bytes -> id.
    std::unordered_map<std::string, int32_t> launch_index_, signature_index_, cost_index_;
    bool categorized_ = false;
};

} // namespace ts
