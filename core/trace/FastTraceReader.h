#pragma once
// The fast Chrome trace reader behind readChromeTraceFile/parseChromeTrace:
// a producer thread reads the file in large blocks and cuts them at
// candidate element boundaries of the event list, worker threads parse the
// chunks with simdjson, and the calling thread builds the trace from them
// strictly in file order (TraceBuilder). Small inputs, builds without
// simdjson (TRAINSCOPE_WITH_SIMDJSON off) and malformed files go through the
// nlohmann stream, which also words every error message.
// This header is for tests and benchmarks that choose the path or the sizes.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "trace/ReadProgress.h"
#include "trace/Trace.h"
#include "trace/TraceSource.h"

namespace ts {

struct TraceReadOptions {
    // Bytes read per block; a chunk is about one block. Each of the (workers
    // + 2) chunks in flight holds its bytes and its parsed events (~2x the
    // bytes), so this bounds the reader's own memory: 4 MB kept 40 MB off the
    // peak of 8 MB at the same speed (840k events, 2 cores), and 2 MB another
    // 26-41 MB of 4 MB's on 300 MB GPU traces. Smaller still is faster: a
    // chunk's parsed events are read by the building thread while they are
    // still in the shared cache. 256 KB against 2 MB (bench_trace_read
    // --blocks 64k,128k,256k,2, 2 cores): the 1 GB CPU trace 3.90 s and 6.2
    // CPU-s against 4.59 s and 7.8; the 300 MB GPU traces the same time, 3-10%
    // less CPU and 26-49 MB less peak memory.
    size_t block_bytes = size_t(256) << 10;
    // Inputs below this size (compressed size x 4 for .json.gz) take the
    // nlohmann stream: threads do not pay off there.
    uint64_t min_parallel_bytes = uint64_t(8) << 20;
    // Parsing threads; 0: the cores this process may use (util/CpuAffinity).
    int workers = 0;
    // Always the nlohmann stream (the reader before issue #14).
    bool sequential = false;
};

// False when built without simdjson: every read is sequential.
bool fastTraceReaderAvailable();

Trace readChromeTraceFile(const std::filesystem::path& path, const ReadProgress& progress,
                          const TraceReadOptions& options);
Trace parseChromeTrace(const std::string& text, const std::string& origin,
                       const TraceReadOptions& options);

// The nlohmann stream over a source (ChromeTraceReader.cpp).
Trace readTraceSequential(TraceSource& source, const std::string& origin,
                          const ReadProgress& progress);

} // namespace ts
