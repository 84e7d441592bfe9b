#include "query/SqlSchema.h"

#include <stdexcept>

namespace ts {
namespace {

// Times are nanoseconds from the trace's start (trace_info's origin_ns is
// that start's absolute time); a missing value is NULL, never -1, so that
// avg() and IS NULL mean what they say.
std::vector<SqlTableDef> makeTables() {
    using T = SqlTableId;
    std::vector<SqlTableDef> t;
    t.push_back(
        {T::Slices,
         "slices",
         "every event of the trace, CPU and device, in (lane, ts) order",
         {{"id", "INTEGER", "the event's number (the rowid); other tables refer to it"},
          {"ts", "INTEGER", "start, ns from the trace's start"},
          {"dur", "INTEGER", "duration, ns"},
          {"end_ts", "INTEGER", "ts + dur"},
          {"name", "TEXT", "the event's name"},
          {"name_id", "INTEGER", "the name's number (names.id)"},
          {"kind", "TEXT",
           "operator, backward, annotation, kernel, memcpy, memset, runtime, communication, "
           "dataloader, profiler_step, profiler_range, python, other"},
          {"category", "TEXT",
           "the trace's \"cat\" (cpu_op, cuda_runtime, kernel, ...), NULL none"},
          {"lane", "INTEGER", "the timeline row (lanes.id)"},
          {"thread", "INTEGER", "the thread id of a CPU lane, NULL on device lanes"},
          {"stream", "INTEGER", "the stream of a device lane, NULL otherwise"},
          {"device", "INTEGER", "the GPU of a device lane, NULL otherwise"},
          {"rank", "INTEGER", "the rank of a distributed profile's lane, NULL otherwise"},
          {"depth", "INTEGER", "nesting depth on its lane, 0 at the top"},
          {"parent_id", "INTEGER", "the enclosing event on its lane, NULL at the top"},
          {"step", "INTEGER", "the training step it belongs to, NULL none"},
          {"correlation", "INTEGER", "correlation id (runtime call <-> device work), NULL none"},
          {"external_id", "INTEGER", "External id (CPU op <-> runtime call), NULL none"}},
         0,
         true,
         {{"name", "name_id", "names", "name"}}});
    t.push_back(
        {T::Kernels,
         "kernels",
         "the device work: kernels, memcpy, memset and communication kernels",
         {{"id", "INTEGER", "the event's number (slices.id)"},
          {"ts", "INTEGER", "start, ns"},
          {"dur", "INTEGER", "duration, ns"},
          {"end_ts", "INTEGER", "ts + dur"},
          {"name", "TEXT", "kernel name"},
          {"name_id", "INTEGER", "names.id"},
          {"kind", "TEXT", "kernel, memcpy, memset or communication"},
          {"lane", "INTEGER", "lanes.id"},
          {"device", "INTEGER", "GPU"},
          {"stream", "INTEGER", "stream"},
          {"rank", "INTEGER", "rank, NULL outside distributed profiles"},
          {"step", "INTEGER", "training step, NULL none"},
          {"correlation", "INTEGER", "correlation id, NULL none"},
          {"external_id", "INTEGER", "External id, NULL none"},
          {"grid_x", "INTEGER", "grid size"},
          {"grid_y", "INTEGER", ""},
          {"grid_z", "INTEGER", ""},
          {"block_x", "INTEGER", "block size"},
          {"block_y", "INTEGER", ""},
          {"block_z", "INTEGER", ""},
          {"registers", "INTEGER", "registers per thread"},
          {"shared_memory", "INTEGER", "shared memory, bytes"},
          {"blocks_per_sm", "REAL", "Kineto's blocks per SM"},
          {"occupancy", "REAL", "Kineto's estimated achieved occupancy, %"},
          {"gbps", "REAL", "a copy's or set's bandwidth, GB/s"},
          {"runtime_id", "INTEGER", "the runtime call that launched it (slices.id), NULL none"},
          {"op_id", "INTEGER", "the CPU event around that call (slices.id), NULL none"}},
         0,
         true,
         {{"name", "name_id", "names", "name"}}});
    t.push_back({T::Launches,
                 "launches",
                 "runtime call -> the device work it launched (by correlation)",
                 {{"runtime_id", "INTEGER", "the runtime call (slices.id)"},
                  {"kernel_id", "INTEGER", "the device event (slices.id, kernels.id)"},
                  {"op_id", "INTEGER", "the CPU event around the call (slices.id), NULL none"},
                  {"correlation", "INTEGER", "correlation id"},
                  {"launch_ts", "INTEGER", "start of the call, ns"},
                  {"launch_dur", "INTEGER", "duration of the call, ns"},
                  {"kernel_ts", "INTEGER", "start of the device work, ns"},
                  {"delay", "INTEGER", "kernel_ts - launch_ts, ns"}}});
    t.push_back({T::Counters,
                 "counters",
                 "time series: cpu_memory (own runs), gpuN_allocated / gpuN_reserved",
                 {{"ts", "INTEGER", "ns"},
                  {"track", "TEXT", "the series"},
                  {"value", "REAL", "its value from ts on (bytes)"}}});
    t.push_back(
        {T::Memory,
         "memory",
         "allocations (bytes > 0) and frees (bytes < 0)",
         {{"ts", "INTEGER", "ns"},
          {"device_type", "TEXT", "cpu or cuda"},
          {"device", "INTEGER", "device index, NULL unknown"},
          {"addr", "INTEGER", "address, NULL unknown"},
          {"bytes", "INTEGER", "+ allocated, - freed"},
          {"total_allocated", "INTEGER", "bytes allocated on the device after it, NULL unknown"},
          {"total_reserved", "INTEGER", "bytes the allocator reserved after it, NULL unknown"},
          {"lane", "INTEGER", "the thread's lane, NULL unknown"},
          {"event_id", "INTEGER", "the innermost event open on that thread then, NULL none"}}});
    t.push_back({T::Steps,
                 "steps",
                 "training steps (ProfilerStep#N or the run's steps)",
                 {{"step", "INTEGER", "step number"},
                  {"ts", "INTEGER", "start, ns"},
                  {"dur", "INTEGER", "ns"},
                  {"end_ts", "INTEGER", "ts + dur"}}});
    t.push_back(
        {T::Args,
         "args",
         "an event's other fields, one row each: shapes, types, concrete_inputs, call_stack, "
         "seq, fwd_bwd_link, device_dur, flops, bytes, alloc_bytes, free_bytes, "
         "wait_stream, wait_event_correlation",
         {{"event_id", "INTEGER", "slices.id"},
          {"key", "TEXT", "the field"},
          {"value_type", "TEXT", "int, real or string"},
          {"int_value", "INTEGER", ""},
          {"real_value", "REAL", ""},
          {"string_value", "TEXT", ""},
          {"string_id", "INTEGER", "the string's number (strings.id)"}},
         -1,
         true,
         {{"string_value", "string_id", "strings", "text"}}});
    t.push_back({T::Names,
                 "names",
                 "every distinct event name",
                 {{"id", "INTEGER", "name_id"}, {"name", "TEXT", "the name"}},
                 0});
    t.push_back({T::Strings,
                 "strings",
                 "every distinct text of args (shapes, types, call stacks)",
                 {{"id", "INTEGER", "string_id"}, {"text", "TEXT", "the text"}},
                 0});
    t.push_back({T::Lanes,
                 "lanes",
                 "the timeline's rows: CPU threads and device streams",
                 {{"id", "INTEGER", "lane"},
                  {"name", "TEXT", "as the timeline shows it"},
                  {"thread", "INTEGER", "thread id, NULL for device lanes"},
                  {"is_device", "INTEGER", "1 for a device stream"},
                  {"device", "INTEGER", "GPU, NULL for CPU lanes"},
                  {"stream", "INTEGER", "stream, NULL for CPU lanes"},
                  {"rank", "INTEGER", "rank, NULL outside distributed profiles"},
                  {"events", "INTEGER", "how many events it holds"}},
                 0});
    t.push_back({T::TraceInfo,
                 "trace_info",
                 "about the trace: source, origin_ns, events, notes",
                 {{"key", "TEXT", ""}, {"value", "TEXT", ""}}});
    t.push_back({T::Tables,
                 "tables",
                 "these tables",
                 {{"name", "TEXT", ""}, {"doc", "TEXT", ""}},
                 -1,
                 false});
    t.push_back({T::Columns,
                 "columns",
                 "every column of every table",
                 {{"table_name", "TEXT", ""},
                  {"name", "TEXT", ""},
                  {"type", "TEXT", ""},
                  {"doc", "TEXT", ""}},
                 -1,
                 false});
    return t;
}

} // namespace

const std::vector<SqlTableDef>& sqlTables() {
    static const std::vector<SqlTableDef> tables = makeTables();
    return tables;
}

const SqlTableDef& sqlTable(SqlTableId id) {
    for (const SqlTableDef& t : sqlTables())
        if (t.id == id) return t;
    throw std::logic_error("sqlTable: unknown table id");
}

const SqlTableDef* findSqlTable(std::string_view name) {
    for (const SqlTableDef& t : sqlTables())
        if (name == t.name) return &t;
    return nullptr;
}

int sqlColumnIndex(const SqlTableDef& table, std::string_view column) {
    for (size_t i = 0; i < table.columns.size(); ++i)
        if (column == table.columns[i].name) return int(i);
    return -1;
}

std::string sqlCreateStatement(const SqlTableDef& table, const std::string& name) {
    std::string out = "CREATE TABLE " + name + "(";
    for (size_t i = 0; i < table.columns.size(); ++i) {
        if (i) out += ", ";
        out += std::string(table.columns[i].name) + ' ' + table.columns[i].type;
        if (int(i) == table.rowid_column) out += " PRIMARY KEY";
    }
    return out + ")";
}

std::string sqlSchemaSummary() {
    std::string out;
    for (const SqlTableDef& t : sqlTables()) {
        out += std::string(t.name) + '(';
        for (size_t i = 0; i < t.columns.size(); ++i)
            out += (i ? ", " : "") + std::string(t.columns[i].name);
        out += ")\n";
    }
    return out;
}

} // namespace ts
