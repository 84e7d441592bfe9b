#pragma once
// The bytes of a rank summary file (".tsrank", RankTraceSummary.h): what one
// rank's trace gives the Distributed view, a few kB to a few hundred kB,
// so that a folder of 1,024 ranks reopens from them without its traces.
//
// The file names the trace by its size and content fingerprint (so it stays
// valid when the trace and its summary are copied off the node that recorded
// them) and by its stat (so that an unchanged trace is known by a stat
// alone), the analysis options and the
// build (analysisSourceHash). Layout, little-endian: a fixed header (magic,
// format version, the stamp, the body's length and checksum, the header's
// checksum), then the body, each count before its items. Everything read is
// checked (analysis/CacheBytes.h, indices against their tables): a damaged
// or foreign file is refused with the reason, never trusted, never a crash.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/RankTraceSummary.h"

namespace ts {

struct RankSummaryStamp {
    uint64_t trace_size = 0;
    uint64_t fingerprint[2] = {0, 0}; // TraceKey's
    // Where and when the trace was when summarised: unchanged, the trace
    // needs no fingerprint to be known again (a stat, not 6 MB hashed).
    int64_t mtime_ns = 0;
    uint64_t device = 0, inode = 0;
    bool plugin_compatible = false;
    uint64_t build = 0; // analysisSourceHash() of the build that wrote it

    bool sameTrace(const RankSummaryStamp& o) const {
        return trace_size == o.trace_size && fingerprint[0] == o.fingerprint[0] &&
               fingerprint[1] == o.fingerprint[1];
    }
    bool sameFile(const RankSummaryStamp& o) const {
        return trace_size == o.trace_size && mtime_ns == o.mtime_ns && device == o.device &&
               inode == o.inode;
    }
};

std::string writeRankSummary(const RankTraceSummary& summary, const RankSummaryStamp& stamp);

struct RankSummaryRead {
    RankSummaryStamp stamp;
    RankTraceSummary summary;
};
// The file's stamp and summary, or nullopt with the reason in `why` when
// `bytes` is not a whole rank summary file of this format version. The
// caller compares the stamp with its trace, options and build.
std::optional<RankSummaryRead> readRankSummary(std::string_view bytes, std::string* why = nullptr);

} // namespace ts
