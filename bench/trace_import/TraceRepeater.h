#pragma once
// A large Kineto trace made from a small real one, for bench_trace_import:
// the source's events written again and again, repetition k shifted in time
// by k * period, its ids (correlation, External id, flow id, Python ids)
// numbered anew above the source's largest (repetition k >= 1 gives the
// source's distinct ids, in their order, the next block of consecutive
// numbers; equal ids stay equal) and its ProfilerStep#N renumbered by
// k * steps, so a reader finds K times the source's events and steps, each
// repetition with the source's figures. Metadata events (ph "M") and the
// root object's other keys are written once.
//
// Timestamps stay exact: the source is read with Trainscope's own stream
// (ts as integer nanoseconds) and written back as microseconds with up to
// three decimals, so 1621401187223005.25 stays 1621401187223005.25 and an
// integer ts stays an integer (the period is a whole microsecond).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bench {

// One event as text pieces around its holes: the values that change from
// one repetition to the next.
struct EventTemplate {
    enum class Hole { Ts, Id, StepName, StepNumber };
    std::vector<std::string> texts; // holes.size() + 1 pieces
    std::vector<Hole> holes;
    std::vector<int64_t> bases; // per hole: ts in ns, the id, the step number
    // Per hole: an id's rank among the source's distinct ids (0 otherwise).
    // Offsetting by (largest id + 1) instead took a trace whose ids reach
    // 7.2 M (a late window of a long job) past int32 within 300
    // repetitions, which a real trace of that size never does.
    std::vector<int64_t> ranks;
};

// Figures of one repetition, which the generated trace holds K times.
struct RepetitionSummary {
    int64_t events = 0;    // events Trainscope counts (ph "X" with a name and ts,
                           // python_function and Trainscope's own steps aside)
    int64_t steps = 0;     // ProfilerStep numbers spanned (0: none)
    int64_t period_ns = 0; // time shift between repetitions
};

struct GeneratedTrace {
    std::filesystem::path path;
    uint64_t file_bytes = 0; // on disk (compressed with --gz)
    uint64_t json_bytes = 0; // of JSON text
    int64_t repetitions = 0;
    int64_t events = 0; // repetitions * RepetitionSummary::events
    int64_t steps = 0;  // repetitions * RepetitionSummary::steps
    RepetitionSummary repetition;
    bool reused = false; // found in the work directory
};

class TraceRepeater {
public:
    // Throws std::invalid_argument naming the file when it is missing or no
    // trace (TraceReadError's message).
    explicit TraceRepeater(const std::filesystem::path& source);

    const RepetitionSummary& summary() const { return summary_; }

    // Writes whole repetitions until `target_bytes` of JSON are reached (at
    // least one), gzip level 1 when `gz`. Writes to `out` + ".part" first and
    // renames, so a cut-off run leaves no file that looks finished.
    GeneratedTrace write(const std::filesystem::path& out, uint64_t target_bytes, bool gz) const;

private:
    std::string root_head_; // "{" + the other root keys, up to the event list
    std::string root_tail_; // after the event list
    std::vector<EventTemplate> metadata_;
    std::vector<EventTemplate> events_;
    int64_t first_new_id_ = 1; // largest id + 1: repetition 1's first id
    int64_t distinct_ids_ = 0; // ids each repetition after the first numbers
    RepetitionSummary summary_;
};

// Where the trace for (source, target_bytes, gz) is kept in `work_dir`: the
// name holds the source's hash (FNV-1a of its bytes), the size and the form.
std::filesystem::path generatedTracePath(const std::filesystem::path& source,
                                         const std::filesystem::path& work_dir,
                                         uint64_t target_bytes, bool gz);
// The trace an earlier run left at `path`, from its ".meta.json"; reused is
// true. Empty when there is none or its size does not match.
std::optional<GeneratedTrace> findGeneratedTrace(const std::filesystem::path& path);
// Generates the trace at `path` with its ".meta.json".
GeneratedTrace generateTrace(const std::filesystem::path& source, const std::filesystem::path& path,
                             uint64_t target_bytes, bool gz);

// "1G", "300M", "2M", "512K", "1000" (decimal: 1G = 10^9 bytes) -> bytes;
// throws std::invalid_argument on an unknown suffix or a size of 0.
uint64_t parseSize(const std::string& text);

} // namespace bench
