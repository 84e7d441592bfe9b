#include "analysis/OverviewCacheFormat.h"

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "analysis/CacheBytes.h"
#include "util/Hash64.h"
#include "util/Utf8.h"

namespace ts {

namespace {

using namespace cache_bytes;

constexpr char kMagic[8] = {'T', 'S', 'O', 'V', 'I', 'E', 'W', '\0'};
constexpr uint32_t kFormatVersion = 1;

struct Header {
    char magic[8];
    uint32_t format_version;
    uint32_t header_size;
    uint64_t build;
    TraceKey key;
    uint64_t events;
    uint32_t options; // bit 0: plugin_compatible
    uint32_t pad;
    uint64_t body_length;
    uint64_t body_checksum;
    uint64_t header_checksum; // of the bytes above
};
static_assert(std::is_trivially_copyable_v<Header>);

uint64_t headerChecksum(const Header& header) {
    return cache_bytes::headerChecksum(header, 0x74736f76);
}

// ---- writing ---------------------------------------------------------------

void putOverview(Sink& out, const GpuOverview& o) {
    out.count(o.steps.size());
    for (const GpuStep& s : o.steps) {
        out.text(s.label);
        out.put(s.start_ns), out.put(s.end_ns);
        for (int64_t ns : s.cost_ns)
            out.put(ns);
    }
    for (double ns : o.average_ns)
        out.put(ns);
    for (bool b : {o.has_runtime, o.has_kernel, o.has_memcpy_or_memset, o.has_communication,
                   o.use_dp, o.use_ddp, o.nccl, o.gloo})
        out.flag(b);
    out.count(o.used_devices.size());
    for (int32_t device : o.used_devices)
        out.put(device);
    out.put(o.global_start_ns), out.put(o.global_end_ns);
}

void putMetrics(Sink& out, const GpuMetrics& m) {
    out.count(m.gpus.size());
    for (const GpuDeviceSummary& g : m.gpus) {
        out.put(g.id);
        out.flag(g.has_properties);
        out.text(g.name);
        out.put(g.memory_bytes), out.put(g.compute_major), out.put(g.compute_minor);
        out.put(g.utilization);
        out.optional(g.sm_efficiency), out.optional(g.occupancy);
        out.optional(g.tensor_core_ratio);
    }
    out.optional(m.tc_used_ratio);
    out.put(m.tc_eligible_ops_kernel_ratio);
}

// ---- reading ---------------------------------------------------------------

GpuOverview getOverview(Source& in) {
    GpuOverview o;
    o.steps.resize(in.count(8 + 8 * (2 + kGpuRoleCount), "steps"));
    for (GpuStep& s : o.steps) {
        s.label = in.text();
        s.start_ns = in.get<int64_t>(), s.end_ns = in.get<int64_t>();
        for (int64_t& ns : s.cost_ns)
            ns = in.get<int64_t>();
    }
    for (double& ns : o.average_ns)
        ns = in.get<double>();
    for (bool* b : {&o.has_runtime, &o.has_kernel, &o.has_memcpy_or_memset, &o.has_communication,
                    &o.use_dp, &o.use_ddp, &o.nccl, &o.gloo})
        *b = in.flag();
    const size_t devices = in.count(sizeof(int32_t), "devices");
    for (size_t i = 0; i < devices; ++i)
        o.used_devices.insert(in.get<int32_t>());
    o.global_start_ns = in.get<int64_t>(), o.global_end_ns = in.get<int64_t>();
    return o;
}

GpuMetrics getMetrics(Source& in) {
    GpuMetrics m;
    m.gpus.resize(in.count(4 + 1 + 8 + 8 + 4 + 4 + 8 + 3 * 9, "GPUs"));
    for (GpuDeviceSummary& g : m.gpus) {
        g.id = in.get<int32_t>();
        g.has_properties = in.flag();
        g.name = in.text();
        g.memory_bytes = in.get<int64_t>();
        g.compute_major = in.get<int32_t>(), g.compute_minor = in.get<int32_t>();
        g.utilization = in.get<double>();
        g.sm_efficiency = in.optional(), g.occupancy = in.optional();
        g.tensor_core_ratio = in.optional();
    }
    m.tc_used_ratio = in.optional();
    m.tc_eligible_ops_kernel_ratio = in.get<double>();
    return m;
}

OverviewSnapshot getBody(Source& in, uint64_t events) {
    OverviewSnapshot s;
    GpuTraceAnalysis& a = s.summary;
    a.scope = GpuAnalysisScope::Summary;
    a.has_events = in.flag();
    a.device_time_without_kernels = in.flag();
    a.overview = getOverview(in);
    a.metrics = getMetrics(in);
    a.recommendations.resize(in.count(16, "recommendations"));
    for (TraceRecommendation& r : a.recommendations) {
        r.rule = in.text();
        r.text = in.text();
    }
    s.steps.resize(in.count(5 * 8, "step spans"));
    for (StepSpan& span : s.steps) {
        span.step = in.get<int64_t>();
        span.host_start = in.get<int64_t>(), span.host_end = in.get<int64_t>();
        span.device_start = in.get<int64_t>(), span.device_end = in.get<int64_t>();
    }
    // The timeline looks events up by these indices: each must be one.
    std::vector<LaunchPair> pairs(in.count(8, "launches"));
    for (LaunchPair& p : pairs) {
        p.first = in.get<int32_t>(), p.second = in.get<int32_t>();
        if (p.first < 0 || p.second < 0 || uint64_t(p.first) >= events ||
            uint64_t(p.second) >= events)
            throw Malformed("a launch names an event the trace does not have");
    }
    if (!in.atEnd()) throw Malformed("bytes follow the launches");
    s.launches = LaunchIndex::fromPairs(std::move(pairs), size_t(events));
    return s;
}

} // namespace

std::string writeOverviewCache(const GpuTraceAnalysis& analysis, const LaunchIndex& launches,
                               const std::vector<StepSpan>& steps,
                               const OverviewCacheStamp& stamp) {
    Sink body;
    body.flag(analysis.has_events);
    body.flag(analysis.device_time_without_kernels);
    putOverview(body, analysis.overview);
    putMetrics(body, analysis.metrics);
    body.count(analysis.recommendations.size());
    for (const TraceRecommendation& r : analysis.recommendations) {
        body.text(r.rule);
        body.text(r.text);
    }
    body.count(steps.size());
    for (const StepSpan& s : steps)
        for (int64_t v : {s.step, s.host_start, s.host_end, s.device_start, s.device_end})
            body.put(v);
    body.count(launches.byRuntime().size());
    for (const auto& [runtime, device] : launches.byRuntime())
        body.put(runtime), body.put(device);

    Header header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.format_version = kFormatVersion;
    header.header_size = sizeof(Header);
    header.build = stamp.build;
    header.key = stamp.key;
    header.events = stamp.events;
    header.options = stamp.plugin_compatible ? 1 : 0;
    header.body_length = body.bytes().size();
    header.body_checksum = bodyChecksum(body.bytes());
    header.header_checksum = headerChecksum(header);
    std::string out(reinterpret_cast<const char*>(&header), sizeof header);
    out += body.bytes();
    return out;
}

std::optional<OverviewSnapshot>
readOverviewCache(std::string_view bytes, const OverviewCacheStamp& expected, std::string* why) {
    auto refuse = [why](const std::string& reason) -> std::optional<OverviewSnapshot> {
        if (why) *why = reason;
        return std::nullopt;
    };
    Header header;
    if (bytes.size() < sizeof header) return refuse("shorter than its header");
    std::memcpy(&header, bytes.data(), sizeof header);
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
        return refuse("not an Overview cache file");
    if (header.header_checksum != headerChecksum(header)) return refuse("its header is damaged");
    if (header.format_version != kFormatVersion || header.header_size != sizeof header)
        return refuse("another format version");
    if (header.build != expected.build) return refuse("made by another build of Trainscope");
    if (header.key != expected.key || header.events != expected.events)
        return refuse("made for another version of the trace");
    if (header.options != (expected.plugin_compatible ? 1u : 0u))
        return refuse("made with other analysis options");
    const std::string_view body = bytes.substr(sizeof header);
    if (body.size() != header.body_length) return refuse("truncated or extended");
    if (bodyChecksum(body) != header.body_checksum) return refuse("its body is damaged");
    try {
        Source in(body);
        return getBody(in, header.events);
    } catch (const Malformed& e) {
        return refuse(e.what());
    }
}

} // namespace ts
