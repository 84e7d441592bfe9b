// The trace cache's index files (.tsidx, trace/TraceIndex.h) on arbitrary
// bytes. Random bytes never pass the checksums, so the target re-stamps a
// well-formed header first (the body's length and checksum, the header's
// checksum) and expects the key the header names: the mutations then reach
// the body's sections and the soundness check (TraceIndexCheck.h), which
// must refuse every trace the analyses cannot use. Whatever it accepts is
// analysed. Seeds are indexes written from the sample traces.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "FuzzSupport.h"
#include "TraceChecks.h"
#include "trace/IndexChecksum.h"
#include "trace/TraceIndex.h"
#include "util/Hash64.h"

namespace {

// The header's layout (TraceIndex.cpp): magic, format version, header size,
// layout hash, key, body length, body checksum, header checksum.
constexpr size_t kVersionAt = 8, kKeyAt = 24, kBodyLengthAt = kKeyAt + sizeof(ts::TraceKey);
constexpr size_t kBodyChecksumAt = kBodyLengthAt + 8, kHeaderChecksumAt = kBodyChecksumAt + 8;
constexpr size_t kHeaderSize = kHeaderChecksumAt + 8;
static_assert(sizeof(ts::TraceKey) == 48);

void put64(std::string& bytes, size_t at, uint64_t value) {
    std::memcpy(&bytes[at], &value, sizeof value);
}

// The header of `bytes` made consistent with its body.
void restamp(std::string& bytes) {
    // This build's format version, header size and layout hash, so that
    // seeds written by an older format still reach the body's checks.
    static const std::string current = ts::writeTraceIndex(ts::Trace{}, ts::TraceKey{});
    std::memcpy(&bytes[kVersionAt], &current[kVersionAt], kKeyAt - kVersionAt);
    const uint64_t body_length = bytes.size() - kHeaderSize;
    put64(bytes, kBodyLengthAt, body_length);
    put64(bytes, kBodyChecksumAt,
          ts::indexChecksum(std::string_view(bytes).substr(kHeaderSize, body_length)));
    ts::Hash64 header(0x5453);
    header.add(bytes.data(), kHeaderChecksumAt);
    put64(bytes, kHeaderChecksumAt, header.digest());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    ts::TraceKey expected;
    if (bytes.size() >= kHeaderSize) {
        restamp(bytes);
        std::memcpy(&expected, bytes.data() + kKeyAt, sizeof expected);
    }
    std::optional<ts::Trace> trace = ts::readTraceIndex(std::string_view(bytes), expected);
    // The same bytes through the FILE* reader (the cache's) must give the
    // same answer; it needs a real file (it asks fstat for the size).
    static ts::fuzz::ScratchDir scratch;
    scratch.write("trace.tsidx", bytes);
    if (std::FILE* file = std::fopen((scratch.path() / "trace.tsidx").c_str(), "rb")) {
        const bool from_file = ts::readTraceIndex(file, expected).has_value();
        std::fclose(file);
        if (from_file != trace.has_value())
            ts::fuzz::propertyBroken("the string and FILE* index readers disagree");
    }
    if (trace) ts::fuzz::analyzeTrace(*trace);
    return 0;
}
