// args: an event's fields beyond the slices columns, one row per field the
// event has. Positions are event * keys + key, so that "event_id = N" reads
// only that event's positions and a full scan needs no index.
#include <iterator>

#include "query/SqlColumns.h"

namespace ts {
namespace {

// The event whose fields are read, built once for all its keys.
struct ArgEvent {
    const Trace* trace = nullptr;
    size_t index = SIZE_MAX;
    TraceEvent event;
    std::optional<SyncWait> wait;
};

// A field, declared once: its key, its value (NULL when the event lacks
// it) and, for a text, its Trace::strings index.
struct ArgKey {
    const char* name;
    SqlCell (*value)(const ArgEvent& a);
    int32_t (*string_id)(const ArgEvent& a); // nullptr: not a text
};

template <int32_t TraceEvent::*Field> SqlCell textOf(const ArgEvent& a) {
    return SqlCell::optionalText(a.trace->stringAt(a.event.*Field));
}
template <int32_t TraceEvent::*Field> int32_t stringOf(const ArgEvent& a) {
    return a.event.*Field;
}
// NULL for 0 (unknown) and below.
template <auto Field> SqlCell countOf(const ArgEvent& a) {
    return a.event.*Field > 0 ? SqlCell::integer(a.event.*Field) : SqlCell{};
}
template <double TraceEvent::*Field> SqlCell amountOf(const ArgEvent& a) {
    return a.event.*Field > 0 ? SqlCell::real(a.event.*Field) : SqlCell{};
}
template <auto Field> SqlCell idOf(const ArgEvent& a) {
    return SqlCell::id(a.event.*Field);
}
template <int64_t SyncWait::*Field> SqlCell waitOf(const ArgEvent& a) {
    return a.wait ? SqlCell::id((*a.wait).*Field) : SqlCell{};
}

constexpr ArgKey kKeys[] = {
    {"shapes", textOf<&TraceEvent::shapes>, stringOf<&TraceEvent::shapes>},
    {"types", textOf<&TraceEvent::types>, stringOf<&TraceEvent::types>},
    {"concrete_inputs", textOf<&TraceEvent::args>, stringOf<&TraceEvent::args>},
    {"call_stack",
     [](const ArgEvent& a) {
         return SqlCell::optionalText(a.trace->callStackOf(int32_t(a.index)));
     },
     [](const ArgEvent& a) { return a.trace->events.callStack(a.index); }},
    {"seq", idOf<&TraceEvent::seq>, nullptr},
    {"fwd_bwd_link", idOf<&TraceEvent::link>, nullptr},
    {"device_dur", countOf<&TraceEvent::device_ns>, nullptr},
    {"flops", amountOf<&TraceEvent::flops>, nullptr},
    {"bytes", amountOf<&TraceEvent::bytes>, nullptr},
    {"alloc_bytes", countOf<&TraceEvent::alloc_bytes>, nullptr},
    {"free_bytes", countOf<&TraceEvent::free_bytes>, nullptr},
    {"wait_stream", waitOf<&SyncWait::stream>, nullptr},
    {"wait_event_correlation", waitOf<&SyncWait::record_correlation>, nullptr},
};
constexpr size_t kKeyCount = std::size(kKeys);

// One field of one event.
struct ArgRow {
    const ArgEvent& event;
    const ArgKey& key;

    SqlCell value() const { return key.value(event); }
};

// The value in the column of its type, NULL in the others.
template <SqlCell::Type Type> SqlCell valueOfType(const ArgRow& r) {
    const SqlCell v = r.value();
    return v.type == Type ? v : SqlCell{};
}

constexpr SqlColumnOf<ArgRow> kArgColumns[] = {
    {"event_id", "INTEGER", "slices.id",
     [](const ArgRow& r) { return SqlCell::integer(int64_t(r.event.index)); }},
    {"key", "TEXT", "the field", [](const ArgRow& r) { return SqlCell::text(r.key.name); }},
    {"value_type", "TEXT", "int, real or string",
     [](const ArgRow& r) {
         const SqlCell v = r.value();
         return SqlCell::text(v.type == SqlCell::Int    ? "int"
                              : v.type == SqlCell::Real ? "real"
                                                        : "string");
     }},
    {"int_value", "INTEGER", "", valueOfType<SqlCell::Int>},
    {"real_value", "REAL", "", valueOfType<SqlCell::Real>},
    {"string_value", "TEXT", "", valueOfType<SqlCell::Text>},
    {"string_id", "INTEGER", "the string's number (strings.id)",
     [](const ArgRow& r) { return SqlCell::id(r.key.string_id ? r.key.string_id(r.event) : -1); }},
};

class ArgRows final : public SqlRows {
public:
    using SqlRows::SqlRows;
    const SqlTableDef& def() const override { return sqlTable(SqlTableId::Args); }
    size_t size() const override { return context_.trace().events.size() * kKeyCount; }
    std::optional<PositionRange> rangeOfId(int64_t id) const override {
        if (id < 0 || uint64_t(id) >= context_.trace().events.size()) return PositionRange{0, 0};
        return PositionRange{size_t(id) * kKeyCount, size_t(id + 1) * kKeyCount};
    }
    bool present(size_t pos) const override { return row(pos).value().type != SqlCell::Null; }
    SqlCell cell(size_t pos, int column) const override {
        return kArgColumns[column].cell(row(pos));
    }

private:
    ArgRow row(size_t pos) const {
        const size_t event = pos / kKeyCount;
        if (event != cached_.index) {
            const Trace& t = context_.trace();
            cached_.trace = &t;
            cached_.event = t.events[event];
            cached_.wait = t.events.syncWait(event);
            cached_.index = event;
        }
        return ArgRow{cached_, kKeys[pos % kKeyCount]};
    }

    mutable ArgEvent cached_;
};

// "shapes, types, ...": the keys, for the table's description.
std::string keyList() {
    std::string out;
    for (const ArgKey& k : kKeys)
        out += (out.empty() ? "" : ", ") + std::string(k.name);
    return out;
}

} // namespace

SqlTableDef argsTable() {
    return declareSqlTable<ArgRows>({SqlTableId::Args,
                                     "args",
                                     "an event's other fields, one row each: " + keyList(),
                                     nullptr,
                                     true,
                                     {{"string_value", "string_id", "strings", "text"}}},
                                    kArgColumns);
}

} // namespace ts
