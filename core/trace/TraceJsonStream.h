#pragma once
// Streaming reader for Chrome trace JSON: hands each element of the event
// list (root list, or the root object's "traceEvents") to a visitor as a
// small JSON object, without building the whole document. Event "ts" and
// "dur" (microseconds) are also given exactly as integer nanoseconds under
// "ts_ns"/"dur_ns": a double cannot hold an absolute Kineto timestamp to the
// nanosecond, and nested ops start less than a microsecond apart.
// The text comes from a TraceSource chunk by chunk; between chunks the read
// reports its progress and may be cancelled (ReadProgress).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "trace/ReadProgress.h"
#include "trace/TraceSource.h"

namespace ts {

class TraceJsonVisitor {
public:
    virtual ~TraceJsonVisitor() = default;
    virtual void event(nlohmann::json& event) = 0;
    // A top-level key of the root object other than "traceEvents".
    virtual void meta(const std::string& key, nlohmann::json& value) = 0;
    // An element of the event list that is not an object.
    virtual void malformed() = 0;
};

// List: a JSON list of events; Object: an object with "traceEvents"; Other:
// anything else.
enum class TraceJsonRoot { List, Object, Other };

// Where a source's text sits in the file, when it is not the whole file: its
// first `synthetic` bytes are made up (the fast reader restarts the stream in
// the middle of the event list behind a made-up '{"traceEvents":['), and
// the byte after them is the file's byte `offset`, `line` newlines into the
// file and `column` bytes into its line. Error messages then give the
// file's positions, as a read of the whole file would.
struct JsonTextBase {
    uint64_t offset = 0;
    uint64_t line = 0;
    uint64_t column = 0;
    size_t synthetic = 0;
    // Newlines in the made-up start, and its bytes after the last one.
    uint64_t synthetic_lines = 0;
    uint64_t synthetic_column = 0;
};

// Throws TraceReadError ("ORIGIN: not valid JSON at byte N ...", "ORIGIN:
// the file is empty ..."), or TraceReadCancelled when progress.report
// returns false.
TraceJsonRoot streamTraceJson(TraceSource& source, const std::string& origin,
                              TraceJsonVisitor& visitor, const ReadProgress& progress = {},
                              const JsonTextBase& base = {});

} // namespace ts
