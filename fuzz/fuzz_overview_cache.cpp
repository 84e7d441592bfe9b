// The trace cache's Overview files (.tsov, analysis/OverviewCacheFormat.h) on
// arbitrary bytes. Random bytes never pass the checksums, so the target
// re-stamps a well-formed header first (the body's length and checksum, the
// header's checksum) and expects the stamp the header names (build, key,
// event count, options): the mutations then reach the body's own checks.
// Whatever it accepts goes where an accepted file goes: the Overview's text,
// JSON and CSV, and the timeline's launch lookups, each of which must name
// an event of the trace. Seeds are files written from the sample traces.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "FuzzSupport.h"
#include "analysis/OverviewCacheFormat.h"
#include "report/GpuTraceReport.h"
#include "util/Hash64.h"

namespace {

// The header's layout (OverviewCacheFormat.cpp): magic 8, format version 4,
// header size 4, build 8, key 48, events 8, options 4, pad 4, body length 8,
// body checksum 8, header checksum 8.
constexpr size_t kBuildAt = 16, kKeyAt = 24, kEventsAt = kKeyAt + sizeof(ts::TraceKey);
constexpr size_t kOptionsAt = kEventsAt + 8, kBodyLengthAt = kOptionsAt + 8;
constexpr size_t kBodyChecksumAt = kBodyLengthAt + 8, kHeaderChecksumAt = kBodyChecksumAt + 8;
constexpr size_t kHeaderSize = kHeaderChecksumAt + 8;
static_assert(sizeof(ts::TraceKey) == 48 && kHeaderSize == 112);

void put64(std::string& bytes, size_t at, uint64_t value) {
    std::memcpy(&bytes[at], &value, sizeof value);
}

template <typename T> T get(const std::string& bytes, size_t at) {
    T value;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

// The header of `bytes` made consistent with its body.
void restamp(std::string& bytes) {
    const uint64_t body_length = bytes.size() - kHeaderSize;
    put64(bytes, kBodyLengthAt, body_length);
    ts::Hash64 body(0x626f6479);
    body.add(std::string_view(bytes).substr(kHeaderSize));
    put64(bytes, kBodyChecksumAt, body.digest());
    ts::Hash64 header(0x74736f76);
    header.add(bytes.data(), kHeaderChecksumAt);
    put64(bytes, kHeaderChecksumAt, header.digest());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    ts::OverviewCacheStamp expected;
    if (bytes.size() >= kHeaderSize) {
        restamp(bytes);
        expected.build = get<uint64_t>(bytes, kBuildAt);
        expected.key = get<ts::TraceKey>(bytes, kKeyAt);
        // Bounded like a trace the store can hold, so that the launch
        // table's counting sort is sized like a real one.
        expected.events = get<uint64_t>(bytes, kEventsAt) % (uint64_t(1) << 24);
        put64(bytes, kEventsAt, expected.events);
        expected.plugin_compatible = (get<uint32_t>(bytes, kOptionsAt) & 1) != 0;
        restamp(bytes);
    }
    const std::optional<ts::OverviewSnapshot> snapshot = ts::readOverviewCache(bytes, expected);
    if (!snapshot) return 0;
    const ts::GpuTraceAnalysis& summary = snapshot->summary;
    if (summary.scope != ts::GpuAnalysisScope::Summary)
        ts::fuzz::propertyBroken("a loaded Overview is not a Summary");
    (void)ts::gpuOverviewText(summary);
    (void)ts::gpuOverviewJson(summary).dump();
    (void)ts::gpuOverviewCsv(summary);
    const ts::LaunchIndex& launches = snapshot->launches;
    if (launches.byRuntime().size() != launches.byDevice().size())
        ts::fuzz::propertyBroken("the launch tables differ in size");
    for (const auto& [device, runtime] : launches.byDevice()) {
        if (uint64_t(device) >= expected.events || uint64_t(runtime) >= expected.events)
            ts::fuzz::propertyBroken("a loaded launch names an event past the trace");
        if (launches.launcherOf(device) < 0)
            ts::fuzz::propertyBroken("a loaded launch is not found by its device event");
    }
    return 0;
}
