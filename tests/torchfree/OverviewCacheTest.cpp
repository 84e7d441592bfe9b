// The Overview cache (analysis/OverviewCache.h): what it loads gives the same
// Overview (text, JSON, CSV), GPU summary, recommendations and timeline
// launches as the analysis it was written from, on every trace of
// tests/data; a file for another trace, build, options or event count, or a
// damaged one, is refused, never a crash; the trace cache lists and clears it
// beside the index.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ExpectSameGpuMetrics.h"
#include "TestPaths.h"
#include "TestTraces.h"
#include "analysis/OverviewCache.h"
#include "inspect/TraceStatsCommand.h"
#include "report/GpuTraceReport.h"
#include "trace/ChromeTraceReader.h"
#include "util/Hash64.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

OverviewCacheStamp stampFor(const Trace& trace, bool plugin = false) {
    OverviewCacheStamp stamp;
    stamp.key.size = 1234;
    stamp.key.mtime_ns = 5678;
    stamp.key.fingerprint[0] = 0x1111;
    stamp.events = trace.events.size();
    stamp.plugin_compatible = plugin;
    stamp.build = analysisSourceHash();
    return stamp;
}

void expectSameSummary(const GpuTraceAnalysis& a, const GpuTraceAnalysis& b,
                       const std::string& file) {
    EXPECT_EQ(a.empty(), b.empty()) << file;
    EXPECT_EQ(a.device_time_without_kernels, b.device_time_without_kernels) << file;
    EXPECT_EQ(gpuOverviewText(a), gpuOverviewText(b)) << file;
    EXPECT_EQ(gpuOverviewJson(a).dump(), gpuOverviewJson(b).dump()) << file;
    EXPECT_EQ(gpuOverviewCsv(a), gpuOverviewCsv(b)) << file;
    const GpuOverview &x = a.overview, &y = b.overview;
    ASSERT_EQ(x.steps.size(), y.steps.size()) << file;
    for (size_t i = 0; i < x.steps.size(); ++i) {
        EXPECT_EQ(x.steps[i].label, y.steps[i].label) << file;
        EXPECT_EQ(x.steps[i].start_ns, y.steps[i].start_ns) << file;
        EXPECT_EQ(x.steps[i].end_ns, y.steps[i].end_ns) << file;
        EXPECT_EQ(x.steps[i].cost_ns, y.steps[i].cost_ns) << file;
    }
    EXPECT_EQ(x.average_ns, y.average_ns) << file;
    EXPECT_EQ(x.showsGpu(), y.showsGpu()) << file;
    EXPECT_EQ(x.has_communication, y.has_communication) << file;
    EXPECT_EQ(x.use_dp, y.use_dp) << file;
    EXPECT_EQ(x.use_ddp, y.use_ddp) << file;
    EXPECT_EQ(x.nccl, y.nccl) << file;
    EXPECT_EQ(x.gloo, y.gloo) << file;
    EXPECT_EQ(x.used_devices, y.used_devices) << file;
    EXPECT_EQ(x.global_start_ns, y.global_start_ns) << file;
    EXPECT_EQ(x.global_end_ns, y.global_end_ns) << file;
    testing::expectSameGpuMetrics(a.metrics, b.metrics, file);
    ASSERT_EQ(a.recommendations.size(), b.recommendations.size()) << file;
    for (size_t r = 0; r < a.recommendations.size(); ++r) {
        EXPECT_EQ(a.recommendations[r].rule, b.recommendations[r].rule) << file;
        EXPECT_EQ(a.recommendations[r].text, b.recommendations[r].text) << file;
    }
}

void expectSameSteps(const std::vector<StepSpan>& a, const std::vector<StepSpan>& b,
                     const std::string& file) {
    ASSERT_EQ(a.size(), b.size()) << file;
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].step, b[i].step) << file;
        EXPECT_EQ(a[i].host_start, b[i].host_start) << file;
        EXPECT_EQ(a[i].host_end, b[i].host_end) << file;
        EXPECT_EQ(a[i].device_start, b[i].device_start) << file;
        EXPECT_EQ(a[i].device_end, b[i].device_end) << file;
    }
}

TEST(OverviewCache, WhatItLoadsEqualsTheAnalysisOnEveryTrace) {
    int traces = 0, with_launches = 0;
    testing::forEachTestTrace(TRAINSCOPE_TEST_DATA_DIR, [&](const std::string& file,
                                                            const Trace& trace) {
        for (const bool plugin : {false, true}) {
            GpuAnalysisOptions options;
            options.plugin_compatible = plugin;
            const GpuTraceAnalysis a = analyzeGpuTrace(trace, options, GpuAnalysisScope::Overview);
            TimelineTracks tracks;
            addTimelineLaunches(tracks, trace, &a.events, &a.links);
            const OverviewCacheStamp stamp = stampFor(trace, plugin);
            std::string why;
            std::optional<OverviewSnapshot> loaded = readOverviewCache(
                writeOverviewCache(a, tracks.launches, tracks.steps, stamp), stamp, &why);
            ASSERT_TRUE(loaded) << file << ": " << why;
            ++traces;
            EXPECT_EQ(loaded->summary.scope, GpuAnalysisScope::Summary);
            expectSameSummary(loaded->summary, a, file);
            EXPECT_EQ(loaded->launches.byRuntime(), tracks.launches.byRuntime()) << file;
            EXPECT_EQ(loaded->launches.byDevice(), tracks.launches.byDevice()) << file;
            expectSameSteps(loaded->steps, tracks.steps, file);
            if (!tracks.launches.empty() && !plugin) ++with_launches;
        }
    });
    EXPECT_GT(traces, 80);
    EXPECT_GT(with_launches, 5);
}

// A small GPU trace, its analysis and launches, and the bytes written for them.
struct Written {
    Trace trace;
    GpuTraceAnalysis analysis;
    TimelineTracks tracks;
    OverviewCacheStamp stamp;
    std::string bytes;
};

Written written() {
    Written w;
    w.trace =
        readChromeTraceFile(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/timeline_launches.json");
    w.analysis = analyzeGpuTrace(w.trace, {}, GpuAnalysisScope::Overview);
    addTimelineLaunches(w.tracks, w.trace, &w.analysis.events, &w.analysis.links);
    w.stamp = stampFor(w.trace);
    w.bytes = writeOverviewCache(w.analysis, w.tracks.launches, w.tracks.steps, w.stamp);
    return w;
}

std::string refusal(const std::string& bytes, const OverviewCacheStamp& stamp) {
    std::string why;
    EXPECT_FALSE(readOverviewCache(bytes, stamp, &why));
    return why;
}

// The header's layout (OverviewCacheFormat.cpp): magic 8, version 4, header
// size 4, build 8, key 48, events 8, options 4, pad 4, body length 8, body
// checksum 8, header checksum 8.
constexpr size_t kHeaderSize = 112, kBodyChecksumAt = 96, kHeaderChecksumAt = 104;

// `bytes` with its checksums made to match again after an edit of the body.
std::string restamped(std::string bytes) {
    Hash64 body(0x626f6479);
    body.add(std::string_view(bytes).substr(kHeaderSize));
    const uint64_t body_sum = body.digest();
    std::memcpy(&bytes[kBodyChecksumAt], &body_sum, 8);
    Hash64 header(0x74736f76);
    header.add(bytes.data(), kHeaderChecksumAt);
    const uint64_t header_sum = header.digest();
    std::memcpy(&bytes[kHeaderChecksumAt], &header_sum, 8);
    return bytes;
}

TEST(OverviewCache, RefusesAFileForAnotherTraceBuildOrOptions) {
    const Written w = written();
    ASSERT_FALSE(w.tracks.launches.empty());
    ASSERT_TRUE(readOverviewCache(w.bytes, w.stamp));
    OverviewCacheStamp other = w.stamp;
    other.key.mtime_ns += 1;
    EXPECT_EQ(refusal(w.bytes, other), "made for another version of the trace");
    other = w.stamp;
    other.events += 1;
    EXPECT_EQ(refusal(w.bytes, other), "made for another version of the trace");
    other = w.stamp;
    other.build ^= 1;
    EXPECT_EQ(refusal(w.bytes, other), "made by another build of Trainscope");
    other = w.stamp;
    other.plugin_compatible = true;
    EXPECT_EQ(refusal(w.bytes, other), "made with other analysis options");
}

TEST(OverviewCache, RefusesADamagedFileWithoutCrashing) {
    const Written w = written();
    ASSERT_GT(w.bytes.size(), kHeaderSize + 100);
    EXPECT_EQ(refusal("", w.stamp), "shorter than its header");
    EXPECT_EQ(refusal(std::string(200, 'x'), w.stamp), "not an Overview cache file");
    for (size_t size = 0; size < w.bytes.size(); size += 7)
        EXPECT_FALSE(readOverviewCache(w.bytes.substr(0, size), w.stamp)) << size;
    EXPECT_EQ(refusal(w.bytes + "x", w.stamp), "truncated or extended");
    std::string flipped = w.bytes;
    flipped[kHeaderSize + 40] ^= 0x20;
    EXPECT_EQ(refusal(flipped, w.stamp), "its body is damaged");
    flipped = w.bytes;
    flipped[20] ^= 0x01; // inside the build hash
    EXPECT_EQ(refusal(flipped, w.stamp), "its header is damaged");

    // Damage behind good checksums (as the fuzzer makes it): each is refused
    // by the body's own checks.
    std::string huge = w.bytes;
    const uint64_t steps = uint64_t(1) << 60;
    std::memcpy(&huge[kHeaderSize + 2], &steps, 8); // after the two flags: the step count
    EXPECT_EQ(refusal(restamped(huge), w.stamp), "the count of steps exceeds the file");
    std::string flag = w.bytes;
    flag[kHeaderSize] = 2;
    EXPECT_EQ(refusal(restamped(flag), w.stamp), "a flag is neither 0 nor 1");
    // A step label that is not UTF-8 (the first finding of the
    // overview_cache fuzz target: the Overview's JSON output threw on it).
    ASSERT_FALSE(w.analysis.overview.steps.empty());
    std::string label = w.bytes; // flags 2 bytes, the step count 8, the label's length 8
    label[kHeaderSize + 18] = char(0xDF);
    EXPECT_EQ(refusal(restamped(label), w.stamp), "a text is not UTF-8");
    // The last launch pair names an event past the trace's end.
    std::string launch = w.bytes;
    const int32_t past = int32_t(w.trace.events.size());
    std::memcpy(&launch[launch.size() - 4], &past, 4);
    EXPECT_EQ(refusal(restamped(launch), w.stamp),
              "a launch names an event the trace does not have");
    const int32_t negative = -1;
    std::memcpy(&launch[launch.size() - 4], &negative, 4);
    EXPECT_EQ(refusal(restamped(launch), w.stamp),
              "a launch names an event the trace does not have");
}

class OverviewCacheFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() /
                ("trainscope-overview-cache-test-" +
                 std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_ / "traces");
        trace_ = root_ / "traces" / "launches.json";
        fs::copy_file(fs::path(TRAINSCOPE_TEST_DATA_DIR) / "timeline_launches.json", trace_);
        settings_.directory = root_ / "cache";
        settings_.min_trace_bytes = 0;
    }
    void TearDown() override { fs::remove_all(root_); }

    Trace open(TraceOpening& opening) { return openTrace(trace_, {}, settings_, opening); }

    bool keep(const Trace& trace, const TraceOpening& opening, std::string* note = nullptr) {
        const GpuTraceAnalysis a = analyzeGpuTrace(trace, {}, GpuAnalysisScope::Overview);
        TimelineTracks tracks;
        addTimelineLaunches(tracks, trace, &a.events, &a.links);
        return keepOverviewSnapshot(a, tracks.launches, tracks.steps, trace, opening, {}, note);
    }

    fs::path root_, trace_;
    TraceCacheSettings settings_;
};

TEST_F(OverviewCacheFileTest, KeptBesideTheIndexAndLoadedOnTheNextOpen) {
    TraceOpening first;
    const Trace read = open(first);
    std::string why;
    EXPECT_FALSE(loadOverviewSnapshot(read, first, {}, &why));
    EXPECT_EQ(why, "no Overview cache file");
    keepTraceIndex(read, settings_, first);
    std::string note;
    ASSERT_TRUE(keep(read, first, &note)) << note;
    EXPECT_EQ(traceCacheUsage(settings_).files, 2u); // the index and its Overview

    TraceOpening second;
    const Trace loaded = open(second);
    ASSERT_TRUE(second.from_index);
    const std::optional<OverviewSnapshot> snapshot = loadOverviewSnapshot(loaded, second, {}, &why);
    ASSERT_TRUE(snapshot) << why;
    expectSameSummary(snapshot->summary, analyzeGpuTrace(loaded, {}, GpuAnalysisScope::Overview),
                      trace_.string());
    GpuAnalysisOptions plugin;
    plugin.plugin_compatible = true;
    EXPECT_FALSE(loadOverviewSnapshot(loaded, second, plugin, &why));
    EXPECT_EQ(why, "made with other analysis options");

    EXPECT_EQ(clearTraceCache(settings_), 2u);
    EXPECT_FALSE(loadOverviewSnapshot(loaded, second, {}, &why));
}

TEST_F(OverviewCacheFileTest, AChangedTraceIsAnalysedAgain) {
    TraceOpening first;
    const Trace read = open(first);
    ASSERT_TRUE(keep(read, first));
    std::ofstream(trace_, std::ios::app) << "\n "; // another size
    TraceOpening second;
    const Trace reread = open(second);
    std::string why;
    EXPECT_FALSE(loadOverviewSnapshot(reread, second, {}, &why));
    EXPECT_EQ(why, "made for another version of the trace");
    // Results of the trace as first opened are not kept once it changed.
    std::string note;
    EXPECT_FALSE(keep(read, first, &note));
    EXPECT_NE(note.find("changed"), std::string::npos) << note;
    ASSERT_TRUE(keep(reread, second));
    EXPECT_TRUE(loadOverviewSnapshot(reread, second, {}));
}

TEST_F(OverviewCacheFileTest, NothingIsKeptForATraceOutsideTheCache) {
    settings_.min_trace_bytes = uint64_t(1) << 30;
    TraceOpening opening;
    const Trace read = open(opening);
    std::string why;
    EXPECT_FALSE(keep(read, opening, &why));
    EXPECT_EQ(why, "the trace is not cached");
    EXPECT_FALSE(loadOverviewSnapshot(read, opening, {}, &why));
    EXPECT_EQ(traceCacheUsage(settings_).files, 0u);
}

struct ViewRun {
    std::string out, err;
};

ViewRun traceStats(const fs::path& trace, const std::string& view, const std::string& format,
                   bool cache = true) {
    TraceStatsOptions options;
    options.file = trace.string();
    options.view = view;
    options.format = format;
    options.cache = cache;
    options.timings = true; // says where the trace and its Overview came from
    std::ostringstream out, err;
    EXPECT_EQ(runTraceStats(options, out, err), 0) << err.str();
    return {out.str(), err.str()};
}

// trace-stats --view overview of a large trace opened before prints its
// Overview from the cache, the same in every format as the analysis; any
// GPU view of the first open keeps it.
TEST_F(OverviewCacheFileTest, TraceStatsPrintsTheSameOverviewFromTheCache) {
    const fs::path trace = testing::writePaddedH100Trace(TRAINSCOPE_TEST_DATA_DIR, root_);
    ASSERT_FALSE(trace.empty());
    ASSERT_EQ(setenv("TRAINSCOPE_CACHE_DIR", (root_ / "cli-cache").c_str(), 1), 0);
    const ViewRun kernels = traceStats(trace, "kernels", "text");
    EXPECT_NE(kernels.err.find("JSON"), std::string::npos) << kernels.err;
    for (const std::string format : {"text", "json", "csv"}) {
        const ViewRun analysed = traceStats(trace, "overview", format, false);
        EXPECT_EQ(analysed.err.find("Overview cached"), std::string::npos) << analysed.err;
        const ViewRun cached = traceStats(trace, "overview", format);
        EXPECT_NE(cached.err.find("from its index"), std::string::npos) << cached.err;
        EXPECT_NE(cached.err.find("(Overview cached)"), std::string::npos) << cached.err;
        EXPECT_EQ(cached.out, analysed.out) << format;
        EXPECT_NE(cached.out.find(format == "text" ? "Kernel" : "kernel"), std::string::npos);
    }
    unsetenv("TRAINSCOPE_CACHE_DIR");
}

} // namespace
} // namespace ts
