#include "analysis/RankSummaryFile.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "analysis/CacheBytes.h"
#include "util/Hash64.h"

namespace ts {

namespace {

using namespace cache_bytes;

constexpr char kMagic[8] = {'T', 'S', 'R', 'A', 'N', 'K', '\0', '\0'};
constexpr uint32_t kFormatVersion = 3; // 2: collectives' process group and Seq;
                                       // 3: the temporal breakdown
// Times a summary may hold: relative ones within 11 days of the trace's
// start (sums over a span's steps cannot overflow), its clock within 126
// years of 1970 (two clocks' difference cannot either).
constexpr int64_t kMaxRelativeNs = 1'000'000'000'000'000;
constexpr int64_t kMaxOriginNs = 4'000'000'000'000'000'000;
// A collective's bytes (a petabyte), a rank and a world size: sums and
// neighbours (rank + 1) stay far from overflowing.
constexpr int64_t kMaxBytes = int64_t(1) << 50;
constexpr int64_t kMaxRank = int64_t(1) << 40;

int64_t relativeNs(Source& in) {
    const int64_t v = in.get<int64_t>();
    if (v < -kMaxRelativeNs || v > kMaxRelativeNs)
        throw Malformed("a time lies more than 11 days from the trace's start");
    return v;
}

struct Header {
    char magic[8];
    uint32_t format_version;
    uint32_t header_size;
    uint64_t build;
    uint64_t trace_size;
    uint64_t fingerprint[2];
    int64_t mtime_ns;
    uint64_t device, inode;
    uint32_t options; // bit 0: plugin_compatible
    uint32_t pad;
    uint64_t body_length;
    uint64_t body_checksum;
    uint64_t header_checksum; // of the bytes above
};
static_assert(std::is_trivially_copyable_v<Header>);

uint64_t headerChecksum(const Header& header) {
    return cache_bytes::headerChecksum(header, 0x7473726b);
}

void putStep(Sink& out, const DistributedStep& s, const std::array<int64_t, kGpuRoleCount>& roles) {
    out.text(s.label);
    for (int64_t v : {s.computation_ns, s.overlapping_ns, s.communication_ns, s.other_ns,
                      s.total_ns, s.start_ns, s.end_ns, s.data_loading_ns})
        out.put(v);
    for (int64_t v : roles)
        out.put(v);
}

void putBody(Sink& out, const RankTraceSummary& s) {
    out.text(s.worker), out.text(s.span);
    out.put(s.rank), out.put(uint8_t(s.rank_source));
    out.text(s.path), out.text(s.backend);
    out.put(s.origin_ns);
    out.put(s.world_size);
    out.text(s.library);
    out.flag(s.uses_gpu);
    out.count(s.devices.size());
    for (const RankDevice& d : s.devices) {
        out.put(d.id), out.text(d.name), out.put(d.memory_bytes);
        out.put(d.compute_major), out.put(d.compute_minor);
    }
    out.count(s.steps.size());
    for (size_t i = 0; i < s.steps.size(); ++i)
        putStep(out, s.steps[i], s.step_roles[i]);
    out.count(s.collective_names.size());
    for (const std::string& name : s.collective_names)
        out.text(name);
    out.count(s.group_names.size());
    for (const std::string& name : s.group_names)
        out.text(name);
    out.count(s.collectives.size());
    for (const RankCollective& c : s.collectives) {
        out.put(c.name), out.put(c.step), out.put(c.bytes), out.put(c.group), out.put(c.seq);
        out.count(c.ranges.size());
        for (const TimeRange& r : c.ranges)
            out.put(r.first), out.put(r.second);
    }
    const TemporalBreakdown& t = s.temporal;
    out.put(t.window_ns), out.put(t.idle_ns), out.put(t.compute_ns), out.put(t.non_compute_ns);
    const ActivityFacts& a = s.activity;
    out.flag(a.any), out.flag(a.linked), out.flag(a.last_step_dropped), out.put(a.dropped);
    out.text(s.steps_note), out.text(s.problem);
}

// The temporal breakdown's parts lie within its window, and it within the trace.
void getTemporal(Source& in, RankTraceSummary& s) {
    TemporalBreakdown& t = s.temporal;
    t.window_ns = relativeNs(in);
    if (t.window_ns < 0) throw Malformed("the device's time window ends before it starts");
    for (int64_t* v : {&t.idle_ns, &t.compute_ns, &t.non_compute_ns}) {
        *v = relativeNs(in);
        if (*v < 0 || *v > t.window_ns)
            throw Malformed("a part of the device's time lies outside its window");
    }
    ActivityFacts& a = s.activity;
    a.any = in.flag(), a.linked = in.flag(), a.last_step_dropped = in.flag();
    a.dropped = in.get<uint64_t>();
}

void getStep(Source& in, RankTraceSummary& s) {
    DistributedStep d;
    d.label = in.text();
    for (int64_t* v : {&d.computation_ns, &d.overlapping_ns, &d.communication_ns, &d.other_ns,
                       &d.total_ns, &d.start_ns, &d.end_ns, &d.data_loading_ns})
        *v = relativeNs(in);
    std::array<int64_t, kGpuRoleCount> roles{};
    for (int64_t& v : roles)
        v = relativeNs(in);
    s.steps.push_back(std::move(d));
    s.step_roles.push_back(roles);
}

void getCollectives(Source& in, RankTraceSummary& s) {
    const size_t names = in.count(8, "collective names");
    for (size_t i = 0; i < names; ++i)
        s.collective_names.push_back(in.text());
    const size_t groups = in.count(8, "process group names");
    for (size_t i = 0; i < groups; ++i)
        s.group_names.push_back(in.text());
    s.collectives.resize(in.count(4 + 4 + 8 + 4 + 8 + 8, "collectives"));
    for (RankCollective& c : s.collectives) {
        c.name = in.get<uint32_t>();
        c.step = in.get<int32_t>();
        c.bytes = in.get<int64_t>();
        c.group = in.get<int32_t>();
        c.seq = in.get<int64_t>();
        if (c.bytes < 0 || c.bytes > kMaxBytes) throw Malformed("a collective's size is no size");
        if (c.name >= s.collective_names.size())
            throw Malformed("a collective names no collective name");
        if (c.group < -1 || c.group >= int64_t(s.group_names.size()) ||
            (c.group >= 0) != (c.seq >= 0))
            throw Malformed("a collective names no process group, or a group without a number");
        if (c.step < -1 || c.step >= int64_t(s.steps.size()))
            throw Malformed("a collective lies in no step of the rank");
        c.ranges.resize(in.count(16, "a collective's ranges"));
        for (TimeRange& r : c.ranges) {
            r.first = relativeNs(in), r.second = relativeNs(in);
            if (r.second < r.first) throw Malformed("a collective's range ends before it starts");
        }
    }
}

RankTraceSummary getBody(Source& in) {
    RankTraceSummary s;
    s.worker = in.text(), s.span = in.text();
    s.rank = in.get<int64_t>();
    if (s.rank < -1 || s.rank > kMaxRank) throw Malformed("the rank is no rank");
    const uint8_t source = in.get<uint8_t>();
    if (source > uint8_t(RankSource::Order)) throw Malformed("the rank's source is unknown");
    s.rank_source = RankSource(source);
    s.path = in.text(), s.backend = in.text();
    s.origin_ns = in.get<int64_t>();
    if (s.origin_ns < -kMaxOriginNs || s.origin_ns > kMaxOriginNs)
        throw Malformed("the trace's clock lies more than 126 years from 1970");
    s.world_size = in.get<int64_t>();
    if (s.world_size < -1 || s.world_size > kMaxRank) throw Malformed("the world size is no size");
    s.library = in.text();
    s.uses_gpu = in.flag();
    s.devices.resize(in.count(4 + 8 + 8 + 4 + 4, "devices"));
    for (RankDevice& d : s.devices) {
        d.id = in.get<int32_t>(), d.name = in.text(), d.memory_bytes = in.get<int64_t>();
        d.compute_major = in.get<int32_t>(), d.compute_minor = in.get<int32_t>();
    }
    const size_t steps = in.count(8 + 8 * (8 + kGpuRoleCount), "steps");
    for (size_t i = 0; i < steps; ++i)
        getStep(in, s);
    getCollectives(in, s);
    getTemporal(in, s);
    s.steps_note = in.text(), s.problem = in.text();
    if (!in.atEnd()) throw Malformed("bytes follow the summary");
    return s;
}

} // namespace

std::string writeRankSummary(const RankTraceSummary& summary, const RankSummaryStamp& stamp) {
    Sink body;
    putBody(body, summary);
    Header header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.format_version = kFormatVersion;
    header.header_size = sizeof(Header);
    header.build = stamp.build;
    header.trace_size = stamp.trace_size;
    header.fingerprint[0] = stamp.fingerprint[0];
    header.fingerprint[1] = stamp.fingerprint[1];
    header.mtime_ns = stamp.mtime_ns;
    header.device = stamp.device;
    header.inode = stamp.inode;
    header.options = stamp.plugin_compatible ? 1 : 0;
    header.body_length = body.bytes().size();
    header.body_checksum = bodyChecksum(body.bytes());
    header.header_checksum = headerChecksum(header);
    std::string out(reinterpret_cast<const char*>(&header), sizeof header);
    out += body.bytes();
    return out;
}

std::optional<RankSummaryRead> readRankSummary(std::string_view bytes, std::string* why) {
    auto refuse = [why](const std::string& reason) -> std::optional<RankSummaryRead> {
        if (why) *why = reason;
        return std::nullopt;
    };
    Header header;
    if (bytes.size() < sizeof header) return refuse("shorter than its header");
    std::memcpy(&header, bytes.data(), sizeof header);
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
        return refuse("not a rank summary file");
    if (header.header_checksum != headerChecksum(header)) return refuse("its header is damaged");
    if (header.format_version != kFormatVersion || header.header_size != sizeof header)
        return refuse("another format version");
    if (header.options > 1) return refuse("unknown analysis options");
    const std::string_view body = bytes.substr(sizeof header);
    if (body.size() != header.body_length) return refuse("truncated or extended");
    if (bodyChecksum(body) != header.body_checksum) return refuse("its body is damaged");
    RankSummaryRead out;
    out.stamp.build = header.build;
    out.stamp.trace_size = header.trace_size;
    out.stamp.fingerprint[0] = header.fingerprint[0];
    out.stamp.fingerprint[1] = header.fingerprint[1];
    out.stamp.mtime_ns = header.mtime_ns;
    out.stamp.device = header.device;
    out.stamp.inode = header.inode;
    out.stamp.plugin_compatible = header.options == 1;
    try {
        Source in(body);
        out.summary = getBody(in);
    } catch (const Malformed& e) {
        return refuse(e.what());
    }
    return out;
}

} // namespace ts
