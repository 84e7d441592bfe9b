#pragma once
// Builds a Trace from the elements of a Chrome trace's event list, given as
// RawTraceEvents in file order, and from the top-level keys around the list
// (meta). Both JSON readers feed this one builder, so the rules that turn
// Kineto's JSON into a Trace (kinds, lanes, side tables, flows, memory
// attribution, rebasing, notes) exist once.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/RawTraceEvent.h"
#include "trace/Trace.h"
#include "trace/TraceJsonStream.h"

namespace ts {

class TraceBuilder {
public:
    // `origin` names the input in error messages (a path, "<stdin>").
    explicit TraceBuilder(std::string origin) : origin_(std::move(origin)) {}
    // One element of the event list (is_object false: a malformed element).
    void add(const RawTraceEvent& e);
    // A top-level key of the root object other than "traceEvents".
    void meta(const std::string& key, nlohmann::json& value);
    // Throws TraceReadError naming the origin when there is nothing to show.
    Trace finish(TraceJsonRoot root);
    // How much of the input has been read (bytes, or compressed bytes): the
    // trace's tables then grow to what the whole input will need.
    void inputRead(uint64_t done, uint64_t total);

private:
    // A Kineto CPU [memory] instant read after the first "CPU memory"
    // counter (only a trace that has both): where its sample goes among the
    // counters' samples.
    struct LateInstant {
        uint32_t instant;        // into kineto.memory
        uint32_t samples_before; // counter samples before it in the file
    };

    void addComplete(const RawTraceEvent& e);
    // The one place an event and its Kineto side-table rows are appended.
    void appendEvent(const RawTraceEvent& e, const TraceEvent& t, KinetoCategory category);
    void readArgs(const RawTraceArgs& args, TraceEvent& t);
    void notePythonFrame(const RawTraceEvent& e, int64_t ts, int64_t dur);
    void stacksFromPythonFrames();
    void addMemory(const RawTraceEvent& e);
    void addDeviceMemory(const RawTraceEvent& e, int64_t ts);
    void addFlow(const RawTraceEvent& e);
    void linkThroughFlows();
    void readDeviceProperties(const nlohmann::json& list);
    int32_t laneOf(const RawTraceEvent& e, bool device);
    int32_t findOrAddLane(const RawTraceEvent& e, bool device);
    // The lane of a GPU stream (Kineto: pid = GPU, tid = "stream N").
    TraceLane deviceLane(const RawTraceEvent& e, int64_t numeric) const;
    const std::string& laneKey(const RawTraceEvent& e);
    std::string flowKey(const RawTraceEvent& e, int64_t ts_ns);
    KinetoCategory categoryOf(std::string_view cat);
    // kindFromCategory, once per name and category: its name tests
    // (autograd, DataLoader, collective, ...) cost more than the rest of an
    // event's build, and a trace repeats a few thousand names.
    EventKind kindOf(KinetoCategory category, uint32_t name);
    int32_t internText(std::string_view text);
    void attributeDeviceTime(const std::vector<int32_t>& new_index);
    // A trace with "CPU memory" counters (Trainscope's own) keeps a
    // MemorySample per CPU [memory] instant too, merged in file order and
    // sorted by time as Trace::finalize sorts them; returns (instant, its
    // sample) pairs.
    std::vector<std::pair<uint32_t, uint32_t>> memorySamples();
    // The op of each such sample, once the trace is finalized.
    void sampleEvents(const std::vector<std::pair<uint32_t, uint32_t>>& sample_of_instant);
    void rebase();

    std::string origin_;
    Trace trace_;
    std::map<std::string, int32_t> lanes_;                 // "pid|tid" -> lane
    std::map<std::string, std::string> thread_names_;      // "pid|tid" -> name
    std::vector<std::pair<int32_t, int64_t>> device_work_; // (event, External id)
    std::vector<LateInstant> late_instants_;
    size_t counter_samples_ = 0;          // from "CPU memory" counters (Trainscope's traces)
    size_t instants_before_counters_ = 0; // kineto.memory's size at the first counter
    // The live bytes of the last sample a memory record made, as a counter's
    // delta counts from it.
    int64_t last_live_bytes_ = 0;
    bool any_sample_ = false;
    // ac2g flows ("s" at the runtime call, "f" at the device work, id = the
    // correlation), keyed "pid|tid|ts_ns": they link events without a
    // correlation argument.
    std::map<std::string, int64_t> flow_start_, flow_end_;
    std::vector<std::pair<int32_t, std::string>> uncorrelated_; // (event, its flow key)
    double growth_ = 0; // the whole input over the part read, 0 unknown
    bool any_category_ = false;
    nlohmann::json trainscope_;
    bool kineto_ = false, legacy_ = false, have_flops_ = false;
    bool any_call_stack_ = false; // some operator has a "Call stack" field
    int64_t malformed_ = 0, python_skipped_ = 0, unsupported_ = 0;
    // Per-event scratch, reused so that building allocates only for what it
    // keeps.
    std::string name_, key_;
    // The last few categories seen: a GPU trace interleaves cpu_op,
    // cuda_runtime and kernel events, so one remembered category missed on
    // most of its events (a string, a lowercase copy and a dozen compares each).
    struct RecentCategory {
        std::string text;
        KinetoCategory category = KinetoCategory::None;
        bool known = false;
    };
    std::array<RecentCategory, 4> recent_categories_;
    size_t next_recent_category_ = 0;
    // The lanes of the last few (pid, tid) texts: most events repeat one of
    // a few threads and streams, and laneOf's map wants a built key.
    struct RecentLane {
        std::string pid, tid;
        int32_t lane = -1;
    };
    std::array<RecentLane, 4> recent_lanes_;
    size_t next_recent_ = 0;
    // By name index: the category and kind last found for it.
    std::vector<std::pair<KinetoCategory, EventKind>> kind_by_name_;
    std::vector<bool> kind_known_;
};

} // namespace ts
