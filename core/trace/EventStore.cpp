#include "trace/EventStore.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "trace/GrowAhead.h"
#include "util/CpuAffinity.h"
#include "util/ThreadPool.h"

namespace ts {

namespace {

constexpr uint16_t kNoStep = 0;
constexpr uint16_t kStepOverflow = 0xFFFF;

constexpr int64_t kFields = EventStore::kOverflowFields;

int64_t overflowKey(size_t i, EventStore::OverflowField field) {
    return static_cast<int64_t>(i) * kFields + field;
}

bool hasOpFields(const TraceEvent& e) {
    return e.shapes >= 0 || e.types >= 0 || e.args >= 0 || e.seq != -1 || e.link >= 0 ||
           e.device_ns != 0;
}

bool hasCosts(const TraceEvent& e) {
    return e.flops != 0 || e.bytes != 0 || e.gbps != 0;
}

bool hasMemory(const TraceEvent& e) {
    return e.alloc_bytes != 0 || e.free_bytes != 0;
}

// Interns a record by its bytes (so NaN fields compare equal); the index is
// rebuilt when the table was filled without it (read from a trace index).
template <typename Record>
int32_t internRecord(std::vector<Record>& table, std::unordered_map<std::string, int32_t>& index,
                     const Record& record) {
    auto key = [](const Record& r) {
        return std::string(reinterpret_cast<const char*>(&r), sizeof(Record));
    };
    if (index.size() != table.size()) {
        index.clear();
        for (size_t id = 0; id < table.size(); ++id)
            index.emplace(key(table[id]), static_cast<int32_t>(id));
    }
    auto [it, added] = index.try_emplace(key(record), static_cast<int32_t>(table.size()));
    if (added) table.push_back(record);
    return it->second;
}

LaunchConfig configOf(const DeviceLaunch& d) {
    return LaunchConfig{d.device,    d.stream,        d.grid,          d.block,
                        d.registers, d.shared_memory, d.blocks_per_sm, d.occupancy};
}

// Before anything is written, so a refused event leaves the store as it was.
void checkLane(int32_t lane) {
    if (lane < 0 || lane > 0xFFFF)
        throw std::out_of_range("trace event lane " + std::to_string(lane) + " outside 0..65535");
}

// The row `row` names in `table`, appended (and `row` set) when it is -1.
template <typename T> T& rowIn(std::vector<T>& table, int32_t& row) {
    if (row < 0) {
        row = static_cast<int32_t>(table.size());
        table.emplace_back();
    }
    return table[size_t(row)];
}

template <typename T> size_t capacityBytes(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

template <typename T> void gather(std::vector<T>& column, const std::vector<int32_t>& order) {
    if (column.empty()) return;
    std::vector<T> moved;
    moved.reserve(order.size());
    for (int32_t old : order)
        moved.push_back(column[size_t(old)]);
    column.swap(moved);
}

} // namespace

int32_t EventStore::packed(size_t i, OverflowField field, int64_t value) {
    const int64_t key = overflowKey(i, field);
    if (value > INT32_MIN && value <= INT32_MAX) {
        if (!overflow_.empty()) overflow_.erase(key);
        return static_cast<int32_t>(value);
    }
    overflow_[key] = value;
    return kOverflow;
}

int64_t EventStore::unpacked(size_t i, OverflowField field, int32_t stored) const {
    if (stored != kOverflow) return stored;
    auto it = overflow_.find(overflowKey(i, field));
    return it != overflow_.end() ? it->second : -1;
}

TraceEvent EventStore::operator[](size_t i) const {
    const EventCore& c = core_[i];
    TraceEvent e;
    e.name = c.name;
    e.kind = c.kind;
    e.lane = c.lane;
    e.start_ns = c.start_ns;
    e.dur_ns = c.dur_ns;
    e.parent = c.parent;
    e.depth = c.depth;
    e.step = step(i);
    if (const EventOpFields* op = opRow(i)) {
        if (op->signature >= 0) {
            const OpSignature& sig = signatures_[size_t(op->signature)];
            e.shapes = sig.shapes, e.types = sig.types, e.args = sig.args;
        }
        e.seq = unpacked(i, Seq, op->seq);
        e.link = op->link;
        e.device_ns = unpacked(i, DeviceNs, op->device_ns);
    }
    if (const EventCost* cost = this->cost(i))
        e.flops = cost->flops, e.bytes = cost->bytes, e.gbps = cost->gbps;
    if (const EventMemory* m = memory(i))
        e.alloc_bytes = m->alloc_bytes, e.free_bytes = m->free_bytes;
    return e;
}

void EventStore::reserve(size_t n) {
    core_.reserve(n);
    extra_.reserve(n);
    correlation_.reserve(n);
    external_.reserve(n);
    if (!wide_steps_.empty()) wide_steps_.reserve(n);
}

void EventStore::growAhead(double scale) {
    if (core_.size() == core_.capacity()) {
        ts::growAhead(core_, scale);
        reserve(core_.capacity()); // the dense columns alike
    }
    ts::growAhead(op_, scale);
    ts::growAhead(rare_, scale);
    ts::growAhead(memory_, scale);
}

void EventStore::push_back(const TraceEvent& e, const KinetoExtras& kineto) {
    checkLane(e.lane);
    const size_t i = core_.size();
    core_.emplace_back();
    extra_.push_back(-1);
    correlation_.push_back(-1);
    external_.push_back(-1);
    if (!wide_steps_.empty()) wide_steps_.push_back(kOverflow);
    core_[i].category = kineto.category;
    categorized_ = categorized_ || kineto.category != KinetoCategory::None;
    setIds(i, kineto.correlation, kineto.external_id);
    if (kineto.launch) {
        const int32_t id = internLaunch(*kineto.launch);
        extra_[i] = -2 - id;
    }
    if (kineto.call_stack >= 0) makeRareRow(i).call_stack = kineto.call_stack;
    if (kineto.sync_wait) {
        overflow_[overflowKey(i, WaitStream)] = kineto.sync_wait->stream;
        overflow_[overflowKey(i, WaitRecord)] = kineto.sync_wait->record_correlation;
    }
    set(i, e);
}

void EventStore::set(size_t i, const TraceEvent& e) {
    checkLane(e.lane);
    EventCore& c = core_[i];
    c.start_ns = e.start_ns;
    c.dur_ns = e.dur_ns;
    c.name = e.name;
    c.parent = e.parent;
    c.lane = static_cast<uint16_t>(e.lane);
    c.depth = e.depth;
    c.kind = e.kind;
    setStep(i, e.step);
    setOpFields(i, e);
    setCosts(i, e);
    setMemory(i, e);
}

void EventStore::setOpFields(size_t i, const TraceEvent& e) {
    EventOpFields* op = opRow(i);
    if (!op && !hasOpFields(e)) return;
    if (!op) op = &makeOpRow(i);
    const OpSignature sig{e.shapes, e.types, e.args};
    op->signature = sig.shapes < 0 && sig.types < 0 && sig.args < 0 ? -1 : internSignature(sig);
    op->link = e.link;
    op->seq = packed(i, Seq, e.seq);
    op->device_ns = packed(i, DeviceNs, e.device_ns);
}

void EventStore::setCosts(size_t i, const TraceEvent& e) {
    const bool has = hasCosts(e);
    if (!has && !cost(i)) return;
    // Interned: the ops of a training step repeat their costs, and a cost
    // that is an op's only rare field sits in the op row itself.
    const int32_t id =
        has ? internRecord(costs_, cost_index_, EventCost{e.flops, e.bytes, e.gbps}) : -1;
    EventOpFields& op = makeOpRow(i);
    if (op.rare >= 0)
        rare_[size_t(op.rare)].cost = id;
    else
        op.rare = id >= 0 ? -2 - id : -1;
}

void EventStore::setMemory(size_t i, const TraceEvent& e) {
    if (memory(i) || hasMemory(e)) makeMemory(i) = EventMemory{e.alloc_bytes, e.free_bytes};
}

EventOpFields& EventStore::makeOpRow(size_t i) {
    if (extra_[i] >= 0) return op_[size_t(extra_[i])];
    const int32_t launch = extra_[i] <= -2 ? -2 - extra_[i] : -1;
    extra_[i] = static_cast<int32_t>(op_.size());
    op_.emplace_back();
    if (launch >= 0) makeRareRow(i).launch = launch; // the launch moves to the rare row
    return op_[size_t(extra_[i])];
}

void EventStore::setCallStack(size_t i, int32_t call_stack) {
    makeRareRow(i).call_stack = call_stack;
}

EventRareFields& EventStore::makeRareRow(size_t i) {
    EventOpFields& op = makeOpRow(i);
    const int32_t cost = op.rare <= -2 ? -2 - op.rare : -1; // the cost moves to the rare row
    if (cost >= 0) op.rare = -1;
    EventRareFields& rare = rowIn(rare_, op.rare);
    if (cost >= 0) rare.cost = cost;
    return rare;
}

int32_t EventStore::costId(const EventOpFields& op) const {
    return op.rare <= -2 ? -2 - op.rare : op.rare >= 0 ? rare_[size_t(op.rare)].cost : -1;
}

const EventCost* EventStore::cost(size_t i) const {
    const EventOpFields* op = opRow(i);
    const int32_t id = op ? costId(*op) : -1;
    return id >= 0 ? &costs_[size_t(id)] : nullptr;
}

const EventMemory* EventStore::memory(size_t i) const {
    const EventRareFields* rare = rareRow(i);
    return rare && rare->memory >= 0 ? &memory_[size_t(rare->memory)] : nullptr;
}

EventMemory& EventStore::makeMemory(size_t i) {
    return rowIn(memory_, makeRareRow(i).memory);
}

int32_t EventStore::internSignature(const OpSignature& signature) {
    return internRecord(signatures_, signature_index_, signature);
}

int64_t EventStore::step(size_t i) const {
    const uint16_t code = core_[i].step_code;
    if (code == kNoStep) return -1;
    if (code != kStepOverflow) return code - 1;
    if (!wide_steps_.empty() && wide_steps_[i] != kOverflow) return wide_steps_[i];
    auto it = overflow_.find(overflowKey(i, Step));
    return it != overflow_.end() ? it->second : -1;
}

void EventStore::setStep(size_t i, int64_t step) {
    uint16_t& code = core_[i].step_code;
    const int64_t key = overflowKey(i, Step);
    if (code == kStepOverflow) { // forget the old wide value
        if (!overflow_.empty()) overflow_.erase(key);
        if (!wide_steps_.empty()) wide_steps_[i] = kOverflow;
    }
    if (step == -1) {
        code = kNoStep;
    } else if (step >= 0 && step < kStepOverflow - 1) {
        code = static_cast<uint16_t>(step + 1);
    } else {
        code = kStepOverflow;
        if (step > INT32_MIN && step <= INT32_MAX) {
            if (wide_steps_.empty()) wide_steps_.assign(core_.size(), kOverflow);
            wide_steps_[i] = static_cast<int32_t>(step);
        } else {
            overflow_[key] = step;
        }
    }
}

int64_t EventStore::seq(size_t i) const {
    const EventOpFields* op = opRow(i);
    return op ? unpacked(i, Seq, op->seq) : -1;
}

int32_t EventStore::link(size_t i) const {
    const EventOpFields* op = opRow(i);
    return op ? op->link : -1;
}

void EventStore::setLink(size_t i, int32_t link) {
    if (link < 0 && !opRow(i)) return;
    makeOpRow(i).link = link;
}

void EventStore::setNesting(size_t i, int32_t parent, int16_t depth) {
    core_[i].parent = parent;
    core_[i].depth = depth;
}

void EventStore::addDeviceNs(size_t i, int64_t ns) {
    if (ns == 0) return;
    EventOpFields& op = makeOpRow(i);
    op.device_ns = packed(i, DeviceNs, unpacked(i, DeviceNs, op.device_ns) + ns);
}

void EventStore::addAllocBytes(size_t i, int64_t bytes) {
    if (bytes != 0) makeMemory(i).alloc_bytes += bytes;
}

void EventStore::addFreeBytes(size_t i, int64_t bytes) {
    if (bytes != 0) makeMemory(i).free_bytes += bytes;
}

void EventStore::clearCategories() {
    for (EventCore& c : core_)
        c.category = KinetoCategory::None;
    categorized_ = false;
}

std::optional<EventIds> EventStore::ids(size_t i) const {
    if (correlation_[i] == -1 && external_[i] == -1) return std::nullopt;
    return EventIds{static_cast<int32_t>(i), unpacked(i, Correlation, correlation_[i]),
                    unpacked(i, External, external_[i])};
}

void EventStore::setIds(size_t i, int64_t correlation, int64_t external_id) {
    correlation_[i] = packed(i, Correlation, correlation);
    external_[i] = packed(i, External, external_id);
}

std::optional<SyncWait> EventStore::syncWait(size_t i) const {
    if (overflow_.empty()) return std::nullopt;
    auto stream = overflow_.find(overflowKey(i, WaitStream));
    if (stream == overflow_.end()) return std::nullopt;
    auto record = overflow_.find(overflowKey(i, WaitRecord));
    return SyncWait{stream->second, record != overflow_.end() ? record->second : -1};
}

int32_t EventStore::launchId(size_t i) const {
    if (extra_[i] <= -2) return -2 - extra_[i];
    const EventRareFields* rare = rareRow(i);
    return rare ? rare->launch : -1;
}

std::optional<DeviceLaunch> EventStore::launch(size_t i) const {
    const int32_t id = launchId(i);
    if (id < 0) return std::nullopt;
    const LaunchConfig& c = launches_[size_t(id)];
    DeviceLaunch d;
    d.event = static_cast<int32_t>(i);
    d.device = c.device, d.stream = c.stream, d.grid = c.grid, d.block = c.block;
    d.registers = c.registers, d.shared_memory = c.shared_memory;
    d.blocks_per_sm = c.blocks_per_sm, d.occupancy = c.occupancy;
    return d;
}

int32_t EventStore::callStack(size_t i) const {
    const EventRareFields* rare = rareRow(i);
    return rare ? rare->call_stack : -1;
}

int32_t EventStore::shapes(size_t i) const {
    const EventOpFields* op = opRow(i);
    return op && op->signature >= 0 ? signatures_[size_t(op->signature)].shapes : -1;
}

int32_t EventStore::signatureRow(size_t i) const {
    const EventOpFields* op = opRow(i);
    return op ? op->signature : -1;
}

bool EventStore::anyFlops() const {
    // By the events' rows: an interned cost no event uses any more stays in the table.
    for (const EventOpFields& op : op_) {
        const int32_t id = costId(op);
        if (id >= 0 && costs_[size_t(id)].flops > 0) return true;
    }
    return false;
}

int32_t EventStore::internLaunch(const DeviceLaunch& d) {
    return internRecord(launches_, launch_index_, configOf(d));
}

void EventStore::permute(const std::vector<int32_t>& new_index) {
    std::vector<int32_t> order(new_index.size());
    for (size_t i = 0; i < new_index.size(); ++i)
        order[size_t(new_index[i])] = static_cast<int32_t>(i);
    // Two independent halves of the work, on two threads where there are
    // two cores: a 1 GB trace's permute was a quarter of a second on the
    // reading thread alone, while the parser threads were already done.
    // One column at a time within each: the transient copy is a column, not
    // the store.
    const auto remap = [&](int32_t& index) {
        if (index >= 0) index = size_t(index) < new_index.size() ? new_index[size_t(index)] : -1;
    };
    parallelFor(2, unsigned(std::min(usableCores(), 2)), [&](size_t half) {
        if (half == 0) {
            gather(core_, order);
            for (EventCore& c : core_)
                remap(c.parent);
            return;
        }
        gather(extra_, order);
        gather(correlation_, order);
        gather(external_, order);
        gather(wide_steps_, order);
        for (EventOpFields& op : op_) // rows stay where they are: extra_ points at them
            remap(op.link);
    });
    if (!overflow_.empty()) {
        std::unordered_map<int64_t, int64_t> moved;
        for (const auto& [key, value] : overflow_)
            moved.emplace(int64_t(new_index[size_t(key / kFields)]) * kFields + key % kFields,
                          value);
        overflow_.swap(moved);
    }
    shrinkToFit();
}

void EventStore::shrinkToFit() {
    core_.shrink_to_fit();
    extra_.shrink_to_fit();
    correlation_.shrink_to_fit();
    external_.shrink_to_fit();
    wide_steps_.shrink_to_fit();
    op_.shrink_to_fit();
    signatures_.shrink_to_fit();
    rare_.shrink_to_fit();
    launches_.shrink_to_fit();
    costs_.shrink_to_fit();
    memory_.shrink_to_fit();
    // Building aids, rebuilt if events are added later.
    launch_index_ = {};
    signature_index_ = {};
    cost_index_ = {};
}

namespace {

template <typename Map> size_t mapBytes(const Map& map, size_t value_bytes) {
    // Hash nodes: the pair, the next pointer and the cached hash; plus buckets.
    return map.size() * (sizeof(typename Map::value_type) + 16 + value_bytes) +
           map.bucket_count() * sizeof(void*);
}

} // namespace

EventStore::MemoryParts EventStore::memoryParts() const {
    MemoryParts p;
    p.core = capacityBytes(core_);
    p.ids = capacityBytes(extra_) + capacityBytes(correlation_) + capacityBytes(external_) +
            capacityBytes(wide_steps_);
    p.op = capacityBytes(op_);
    p.signatures = capacityBytes(signatures_);
    p.rare = capacityBytes(rare_);
    p.launches = capacityBytes(launches_);
    p.costs = capacityBytes(costs_);
    p.memory = capacityBytes(memory_);
    // A launch config's key is too long for the string's inline buffer.
    p.maps = mapBytes(overflow_, 0) + mapBytes(launch_index_, sizeof(LaunchConfig)) +
             mapBytes(signature_index_, 0) + mapBytes(cost_index_, sizeof(EventCost));
    return p;
}

size_t EventStore::memoryBytes() const {
    const MemoryParts p = memoryParts();
    return sizeof(*this) + p.core + p.ids + p.op + p.signatures + p.rare + p.launches + p.costs +
           p.memory + p.maps;
}

EventStore::ColumnRefs EventStore::columns() const {
    ColumnRefs c{core_, extra_,    correlation_, external_, op_, signatures_,
                 rare_, launches_, costs_,       memory_,   {}};
    c.overflow.reserve(overflow_.size());
    for (const auto& [key, value] : overflow_)
        c.overflow.push_back(OverflowValue{int32_t(key / kFields), int32_t(key % kFields), value});
    // The index keeps wide steps as overflow rows: its format predates them.
    for (size_t i = 0; i < wide_steps_.size(); ++i)
        if (wide_steps_[i] != kOverflow)
            c.overflow.push_back(OverflowValue{int32_t(i), Step, wide_steps_[i]});
    std::sort(c.overflow.begin(), c.overflow.end(),
              [](const OverflowValue& a, const OverflowValue& b) {
                  return a.event != b.event ? a.event < b.event : a.field < b.field;
              });
    return c;
}

EventStore EventStore::fromColumns(Columns c) {
    EventStore s;
    s.core_ = std::move(c.core);
    s.extra_ = std::move(c.extra);
    s.correlation_ = std::move(c.correlation);
    s.external_ = std::move(c.external);
    s.op_ = std::move(c.op);
    s.signatures_ = std::move(c.signatures);
    s.rare_ = std::move(c.rare);
    s.launches_ = std::move(c.launches);
    s.costs_ = std::move(c.costs);
    s.memory_ = std::move(c.memory);
    for (const OverflowValue& v : c.overflow) {
        const bool wide_step = v.field == Step && v.event >= 0 &&
                               size_t(v.event) < s.core_.size() && v.value > INT32_MIN &&
                               v.value <= INT32_MAX;
        if (wide_step) {
            if (s.wide_steps_.empty()) s.wide_steps_.assign(s.core_.size(), kOverflow);
            s.wide_steps_[size_t(v.event)] = static_cast<int32_t>(v.value);
        } else {
            s.overflow_[int64_t(v.event) * kFields + (v.field & (kFields - 1))] = v.value;
        }
    }
    s.categorized_ = std::any_of(s.core_.begin(), s.core_.end(), [](const EventCore& e) {
        return e.category != KinetoCategory::None;
    });
    return s;
}

std::string EventStore::columnsProblem(size_t strings) const {
    const size_t n = core_.size();
    if (extra_.size() != n || correlation_.size() != n || external_.size() != n)
        return "event columns differ in length";
    auto string_ok = [&](int32_t s) { return s == -1 || (s >= 0 && size_t(s) < strings); };
    for (size_t i = 0; i < n; ++i) {
        const int32_t x = extra_[i];
        if (x >= 0 ? size_t(x) >= op_.size()
                   : x <= -2 && size_t(-2 - int64_t(x)) >= launches_.size())
            return "an event's extra row is out of range";
        if (static_cast<uint8_t>(core_[i].category) > static_cast<uint8_t>(KinetoCategory::Other))
            return "an event's category is unknown";
    }
    auto row_ok = [](int32_t row, size_t rows) {
        return row == -1 || (row >= 0 && size_t(row) < rows);
    };
    for (const EventOpFields& op : op_) {
        if (!row_ok(op.signature, signatures_.size()))
            return "an event's input signature is out of range";
        if (!row_ok(op.link, n)) return "an event's link is out of range";
        const bool cost_only = op.rare <= -2 && size_t(-2 - int64_t(op.rare)) < costs_.size();
        if (!cost_only && !row_ok(op.rare, rare_.size()))
            return "an event's rare row is out of range";
    }
    for (const OpSignature& sig : signatures_)
        for (int32_t s : {sig.shapes, sig.types, sig.args})
            if (!string_ok(s)) return "an event's string is out of range";
    for (const EventRareFields& rare : rare_) {
        if (!string_ok(rare.call_stack)) return "an event's string is out of range";
        if (!row_ok(rare.launch, launches_.size())) return "an event's launch is out of range";
        if (!row_ok(rare.cost, costs_.size())) return "an event's cost row is out of range";
        if (!row_ok(rare.memory, memory_.size())) return "an event's memory row is out of range";
    }
    for (const auto& [key, value] : overflow_)
        if (key < 0 || size_t(key / kFields) >= n) return "an overflow value names no event";
    return {};
}

} // namespace ts
