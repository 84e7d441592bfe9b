// args: an event's fields beyond the slices columns, one row per field the
// event has. Positions are event * kKeys + key, so that "event_id = N"
// reads only that event's positions and a full scan needs no index.
#include "query/SqlRowTables.h"

namespace ts {
namespace {

enum Key {
    Shapes,
    Types,
    ConcreteInputs,
    CallStack,
    Seq,
    FwdBwdLink,
    DeviceDur,
    Flops,
    Bytes,
    AllocBytes,
    FreeBytes,
    WaitStream,
    WaitEventCorrelation,
    kKeys
};
constexpr const char* kKeyNames[kKeys] = {"shapes",
                                          "types",
                                          "concrete_inputs",
                                          "call_stack",
                                          "seq",
                                          "fwd_bwd_link",
                                          "device_dur",
                                          "flops",
                                          "bytes",
                                          "alloc_bytes",
                                          "free_bytes",
                                          "wait_stream",
                                          "wait_event_correlation"};

class ArgRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Args); }
    size_t size() const override { return context_.trace().events.size() * kKeys; }
    std::optional<PositionRange> rangeOfId(int64_t id) const override {
        if (id < 0 || uint64_t(id) >= context_.trace().events.size()) return PositionRange{0, 0};
        return PositionRange{size_t(id) * kKeys, size_t(id + 1) * kKeys};
    }
    bool present(size_t pos) const override { return value(pos).type != SqlCell::Null; }
    SqlCell cell(size_t pos, int column) const override {
        switch (column) {
        case 0:
            return SqlCell::integer(int64_t(pos / kKeys));
        case 1:
            return SqlCell::text(kKeyNames[pos % kKeys]);
        case 2: {
            const SqlCell v = value(pos);
            return SqlCell::text(v.type == SqlCell::Int    ? "int"
                                 : v.type == SqlCell::Real ? "real"
                                                           : "string");
        }
        }
        if (column == 6) return SqlCell::id(stringId(pos));
        const SqlCell v = value(pos);
        const SqlCell::Type wanted = column == 3   ? SqlCell::Int
                                     : column == 4 ? SqlCell::Real
                                                   : SqlCell::Text;
        return v.type == wanted ? v : SqlCell{};
    }

private:
    // The Trace::strings index of a text field, -1 for the others.
    int32_t stringId(size_t pos) const {
        value(pos); // caches the event
        switch (Key(pos % kKeys)) {
        case Shapes:
            return event_.shapes;
        case Types:
            return event_.types;
        case ConcreteInputs:
            return event_.args;
        case CallStack:
            return context_.trace().events.callStack(pos / kKeys);
        default:
            return -1;
        }
    }

    // The field at a position, NULL when the event lacks it. The event is
    // built once for its kKeys positions.
    SqlCell value(size_t pos) const {
        const size_t event = pos / kKeys;
        const Trace& t = context_.trace();
        if (event != cached_) {
            event_ = t.events[event];
            wait_ = t.events.syncWait(event);
            cached_ = event;
        }
        const TraceEvent& e = event_;
        auto positive = [](double v) { return v > 0 ? SqlCell::real(v) : SqlCell{}; };
        auto count = [](int64_t v) { return v > 0 ? SqlCell::integer(v) : SqlCell{}; };
        switch (Key(pos % kKeys)) {
        case Shapes:
            return SqlCell::optionalText(t.stringAt(e.shapes));
        case Types:
            return SqlCell::optionalText(t.stringAt(e.types));
        case ConcreteInputs:
            return SqlCell::optionalText(t.stringAt(e.args));
        case CallStack:
            return SqlCell::optionalText(t.callStackOf(int32_t(event)));
        case Seq:
            return SqlCell::id(e.seq);
        case FwdBwdLink:
            return SqlCell::id(e.link);
        case DeviceDur:
            return count(e.device_ns);
        case Flops:
            return positive(e.flops);
        case Bytes:
            return positive(e.bytes);
        case AllocBytes:
            return count(e.alloc_bytes);
        case FreeBytes:
            return count(e.free_bytes);
        case WaitStream:
            return wait_ ? SqlCell::id(wait_->stream) : SqlCell{};
        case WaitEventCorrelation:
            return wait_ ? SqlCell::id(wait_->record_correlation) : SqlCell{};
        case kKeys:
            break;
        }
        return {};
    }

    mutable size_t cached_ = SIZE_MAX;
    mutable TraceEvent event_;
    mutable std::optional<SyncWait> wait_;
};

} // namespace

std::unique_ptr<SqlRows> makeArgRows(const SqlTraceContext& c) {
    return std::make_unique<ArgRows>(c);
}

} // namespace ts
