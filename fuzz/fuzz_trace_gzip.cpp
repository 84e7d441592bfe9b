// A .json.gz trace file as the reader opens it from disk: the input is the
// file's bytes (gzip is told by its magic bytes), read by the sequential
// stream and by the block reader. Truncated or corrupt gzip must be a
// TraceReadError naming the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "trace/FastTraceReader.h"
#include "trace/TraceReadError.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static ts::fuzz::ScratchDir scratch;
    scratch.write("trace.json.gz", std::string(reinterpret_cast<const char*>(data), size));
    const std::filesystem::path path = scratch.path() / "trace.json.gz";
    ts::TraceReadOptions fast;
    fast.block_bytes = 256;
    fast.min_parallel_bytes = 0;
    fast.workers = 2;
    ts::TraceReadOptions sequential;
    sequential.sequential = true;
    int accepted = 0;
    for (const ts::TraceReadOptions& options : {sequential, fast}) {
        try {
            (void)ts::readChromeTraceFile(path, ts::ReadProgress{}, options);
            ++accepted;
        } catch (const ts::TraceReadError&) {
        }
    }
    if (accepted == 1)
        ts::fuzz::propertyBroken("one reader accepts the file, the other refuses it");
    return 0;
}
