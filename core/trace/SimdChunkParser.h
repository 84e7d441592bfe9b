#pragma once
// Parses one chunk of a Chrome trace's event list with simdjson On Demand
// into RawTraceEvents: the chunk is the text of whole list elements,
// "{...}, {...}", which the caller wraps as "[" + text + "]" so that it is
// one JSON document. Every value of every element is read or validated, so
// a chunk cut at a wrong place (inside a string or a nested value) fails.
// Only built with TRAINSCOPE_WITH_SIMDJSON; the header does not expose
// simdjson.
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "trace/RawTraceEvent.h"

namespace ts {

struct ParsedChunk {
    enum class End {
        Complete,   // every element read, up to the "]" the caller added
        ListClosed, // the event list itself closed inside the chunk
        Failed,     // not valid JSON from the chunk's start (or cut at a wrong place)
    };
    std::vector<RawTraceEvent> events;
    // Texts the events view that are not in the chunk's bytes (unescaped
    // strings, re-spaced arrays, pid/tid texts).
    std::deque<std::string> texts;
    End end = End::Complete;
    size_t list_close = 0; // ListClosed: offset of the list's "]" in the chunk's bytes
    // Offset of the last element's first byte in the chunk's bytes (none:
    // npos): a restart of the nlohmann stream there gives its messages the
    // same "last read" context as a read of the whole file.
    size_t last_element = std::string::npos;

    void clear() {
        events.clear();
        texts.clear();
        end = End::Complete;
        list_close = 0;
        last_element = std::string::npos;
    }
};

// simdjson wants this many readable bytes after a document.
size_t simdjsonPadding();

class SimdChunkParser {
public:
    SimdChunkParser();
    ~SimdChunkParser();
    SimdChunkParser(const SimdChunkParser&) = delete;
    SimdChunkParser& operator=(const SimdChunkParser&) = delete;

    // `wrapped` is "[" + the chunk's bytes + "]", `size` long, followed by
    // simdjsonPadding() readable bytes. The events view into it.
    void parse(const char* wrapped, size_t size, ParsedChunk& out);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
