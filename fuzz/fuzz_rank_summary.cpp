// Rank summary files (.tsrank, analysis/RankSummaryFile.h) on arbitrary
// bytes: they come from other machines (written by trace-index on the nodes
// that recorded the traces) and are merged without their traces. Random
// bytes never pass the checksums, so the target re-stamps a well-formed
// header first; the mutations then reach the body's own checks. Whatever it
// accepts goes where an accepted summary goes: into a Distributed view with
// a copy of itself as another rank, and out as text and JSON.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "FuzzSupport.h"
#include "analysis/RankSummaryFile.h"
#include "report/DistributedReport.h"
#include "util/Hash64.h"

namespace {

// The header's layout (RankSummaryFile.cpp): magic 8, format version 4,
// header size 4, build 8, trace size 8, fingerprint 16, mtime 8, device 8,
// inode 8, options 4, pad 4, body length 8, body checksum 8, header checksum 8.
constexpr size_t kVersionAt = 8, kBodyLengthAt = 80, kBodyChecksumAt = 88, kHeaderChecksumAt = 96;
constexpr size_t kHeaderSize = 104;

void put64(std::string& bytes, size_t at, uint64_t value) {
    std::memcpy(&bytes[at], &value, sizeof value);
}

void restamp(std::string& bytes) {
    // This build's format version, so that seeds from an older format still
    // reach the body's checks.
    static const std::string current = ts::writeRankSummary({}, {});
    std::memcpy(&bytes[kVersionAt], &current[kVersionAt], 4);
    put64(bytes, kBodyLengthAt, bytes.size() - kHeaderSize);
    ts::Hash64 body(0x626f6479);
    body.add(std::string_view(bytes).substr(kHeaderSize));
    put64(bytes, kBodyChecksumAt, body.digest());
    ts::Hash64 header(0x7473726b);
    header.add(bytes.data(), kHeaderChecksumAt);
    put64(bytes, kHeaderChecksumAt, header.digest());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    if (bytes.size() >= kHeaderSize) restamp(bytes);
    std::optional<ts::RankSummaryRead> read = ts::readRankSummary(bytes);
    if (!read) return 0;
    ts::RankTraceSummary other = read->summary;
    other.rank = read->summary.rank == 0 ? 1 : 0;
    other.path += ".other";
    std::vector<ts::RankTraceSummary> ranks{read->summary, other};
    ts::GpuAnalysisOptions options;
    options.plugin_compatible = read->stamp.plugin_compatible;
    try {
        const ts::DistributedView view = ts::computeDistributedView(std::move(ranks), options);
        if (view.ranks.empty()) ts::fuzz::propertyBroken("a view without ranks was returned");
        (void)ts::distributedText(view);
        (void)ts::distributedJson(view).dump();
    } catch (const std::invalid_argument&) {
        // no rank forms a view (the summary names a problem)
    }
    return 0;
}
