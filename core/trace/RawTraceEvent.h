#pragma once
// One element of a Chrome trace's event list, reduced to the fields the
// TraceBuilder reads: the neutral form both JSON readers produce (the
// nlohmann one converts its json, the simdjson one fills it straight from
// the text), so that one set of rules builds the Trace from either and the
// two agree by construction. Views point into the reader's buffers and are
// valid until the builder has consumed the event.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ts {

// A JSON value where the builder wants a number. The kinds mirror nlohmann's
// (signed, unsigned, float), because the old reader's conversions
// (get<int64_t>, llround of a double) depend on them.
struct RawNumber {
    enum class Kind : uint8_t { Absent, NotNumber, Int, Uint, Float };
    Kind kind = Kind::Absent;
    union {
        int64_t i;
        uint64_t u;
        double d;
    } v{0};

    static RawNumber ofInt(int64_t x) {
        RawNumber n;
        n.kind = Kind::Int;
        n.v.i = x;
        return n;
    }
    static RawNumber ofUint(uint64_t x) {
        RawNumber n;
        n.kind = Kind::Uint;
        n.v.u = x;
        return n;
    }
    static RawNumber ofDouble(double x) {
        RawNumber n;
        n.kind = Kind::Float;
        n.v.d = x;
        return n;
    }
    static RawNumber notNumber() {
        RawNumber n;
        n.kind = Kind::NotNumber;
        return n;
    }

    bool isNumber() const { return kind >= Kind::Int; }
    bool isInteger() const { return kind == Kind::Int || kind == Kind::Uint; }
    // The old reader's getInt: floats round, unsigned values wrap like
    // nlohmann's get<int64_t>. False (out untouched) for anything else.
    // Inline: the builder asks a dozen per event.
    bool getInt(int64_t& out) const {
        switch (kind) {
        case Kind::Int:
            out = v.i;
            return true;
        case Kind::Uint:
            out = static_cast<int64_t>(v.u);
            return true;
        case Kind::Float:
            out = static_cast<int64_t>(std::llround(v.d));
            return true;
        default:
            return false;
        }
    }
    double getDouble(double fallback = 0) const {
        switch (kind) {
        case Kind::Int:
            return static_cast<double>(v.i);
        case Kind::Uint:
            return static_cast<double>(v.u);
        case Kind::Float:
            return v.d;
        default:
            return fallback;
        }
    }
};

// pid or tid: a number or a string ("CPU functions", "stream 7").
struct RawId {
    enum class Kind : uint8_t { Absent, String, Integer, Other };
    Kind kind = Kind::Absent;
    // The lane key part: the string, or the value's JSON text (nlohmann's
    // dump() of integers; the raw token of floats and other values).
    std::string_view text;
    int64_t integer = 0; // Kind::Integer

    // The old reader's idText: "0" when absent.
    std::string_view keyText() const { return kind == Kind::Absent ? "0" : text; }
};

// The numeric fields of "args" the builder reads, by key.
enum class RawArg : uint8_t {
    ExternalIdUpper, // "External id" (Kineto's CPU ops)
    ExternalIdLower, // "external id" (its GPU events)
    Correlation,     // "correlation"
    Sequence,        // "Sequence number"
    Step,            // "step"
    DeviceNs,        // "device_ns"
    AllocBytes,      // "alloc_bytes"
    FreeBytes,       // "free_bytes"
    Flops,           // "flops"
    Bytes,           // "bytes"
    Device,          // "device"
    Stream,          // "stream"
    Registers,       // "registers per thread"
    SharedMemory,    // "shared memory"
    BlocksPerSm,     // "blocks per SM"
    Occupancy,       // "est. achieved occupancy %"
    PythonId,        // "Python id"
    PythonParentId,  // "Python parent id"
    PythonModuleId,  // "Python module id"
    DeviceType,      // "Device Type"
    DeviceId,        // "Device Id"
    Addr,            // "Addr"
    MemBytes,        // "Bytes"
    TotalAllocated,  // "Total Allocated"
    TotalReserved,   // "Total Reserved"
    LiveBytes,       // "live_bytes"
    Bandwidth,       // "memory bandwidth (GB/s)"
    WaitOnStream,    // "wait_on_stream" (cuda_sync: the stream an event was recorded on)
    WaitOnRecord,    // "wait_on_cuda_event_record_corr_id" (its cudaEventRecord)
    CollectiveSeq,   // "Seq" (a collective's number in its process group)
    Count
};
inline constexpr size_t kRawArgCount = static_cast<size_t>(RawArg::Count);
// The key of each RawArg, in the enum's order.
extern const std::string_view kRawArgKeys[kRawArgCount];

// The fields of "args" the builder reads. Texts of arrays are the
// ", "-separated JSON (see JsonRespace.h). A key that appears twice counts
// with its last value, as in a parsed JSON object.
struct RawTraceArgs {
    // User-provided on purpose: a reader makes one per event (millions), and
    // value-initializing would zero every number slot first. Only the slots
    // that `present_` marks are ever read.
    RawTraceArgs() {}

    std::optional<std::string_view> input_dims_upper; // "Input Dims"
    std::optional<std::string_view> input_dims_lower; // "Input dims"
    std::optional<std::string_view> input_type;       // "Input type"
    std::optional<std::string_view> concrete_inputs;  // "Concrete Inputs"
    std::optional<std::string_view> call_stack;       // "Call stack" (a string)
    std::string_view kind;                            // "kind" ("" if none or not a string)
    std::string_view name;                            // "name" (thread_name events)
    std::string_view process_group;                   // "Process Group Name" ("" if none)
    std::array<int32_t, 3> grid{-1, -1, -1}, block{-1, -1, -1};

    // The number under `field`'s key; Absent when the key is not there.
    const RawNumber& operator[](RawArg field) const {
        static const RawNumber absent;
        const auto i = static_cast<size_t>(field);
        return present_ & (uint32_t(1) << i) ? numbers_[i].n : absent;
    }
    void set(RawArg field, const RawNumber& value) {
        const auto i = static_cast<size_t>(field);
        numbers_[i].n = value;
        present_ |= uint32_t(1) << i;
    }

private:
    static_assert(kRawArgCount <= 32, "one bit of present_ per field");
    // A slot without a default value: RawNumber's own would initialize it.
    union Slot {
        Slot() {}
        RawNumber n;
    };
    uint32_t present_ = 0;
    Slot numbers_[kRawArgCount];
};

struct RawTraceEvent {
    // User-provided, like RawTraceArgs': emplace_back() would otherwise zero
    // the whole event (about 700 bytes) before setting its fields.
    RawTraceEvent() {}

    // False: the list element is not an object (counted as malformed).
    bool is_object = true;
    std::string_view ph, name, cat; // "" when absent or not a string
    RawId pid, tid;
    // Nanoseconds: "ts"/"dur" numbers in microseconds converted exactly
    // (TraceTime.h), or a literal "ts_ns"/"dur_ns" value.
    RawNumber ts_ns, dur_ns;
    RawNumber id;          // flow id
    bool has_args = false; // "args" present, whatever its type
    RawTraceArgs args;     // filled only when "args" is an object
};

} // namespace ts
