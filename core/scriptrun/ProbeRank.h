#pragma once
// One rank of a user's script as its probe reports it: lines in, the
// Trainer's observer calls out (run start, steps, epochs, profile windows,
// messages), so whatever records or shows Trainscope's own runs records and
// shows the script's. The run starts (onRunStarted) once the probe knows the
// device (its `device` line at the first optimizer step, or whatever comes
// first after the hello), so the run's record names it. A step is held until
// the rank's next step (or the end): its memory line and, on CUDA, its loss
// read a step late arrive after it.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "records/SummaryBuilder.h"
#include "records/TrainerObserver.h"
#include "scriptrun/ProbeRecords.h"
#include "scriptrun/ProbeWire.h"

namespace ts::scriptrun {

class ProbeRank {
public:
    // `on_hello` makes the rank's RunInfo (ScriptRun knows the command line
    // and the profiling schedule); `observer` gets everything from then on.
    // Traces are read only from `trace_dir`, where the probe was told to
    // save them: a line naming another file (/dev/zero) is refused.
    using HelloHandler = std::function<RunInfo(const ProbeHello&)>;
    ProbeRank(TrainerObserver& observer, HelloHandler on_hello, std::filesystem::path trace_dir,
              int warmup_steps_excluded = 5);

    // One line as it came (without '\n'). Bad lines become warnings naming
    // the line (the first few; then a count at the end), never an exception.
    void onLine(std::string_view line);
    // The stream ended (the connection closed): the held step goes out.
    void endOfStream();

    bool started() const { return started_; }
    const std::optional<ProbeHello>& hello() const { return hello_; }
    const std::optional<ProbeBye>& bye() const { return bye_; }
    int64_t steps() const { return steps_; }
    double lastWallS() const { return last_wall_s_; }
    int badLines() const { return bad_lines_; }
    // The summary of the steps seen (steady-state medians, peaks).
    RunSummary summary(RunStatus status, const std::string& error, double total_time_s) const;
    RankSummary rankFigures() const { return summary_.rankFigures(); }

private:
    void apply(ProbeLineType type, const nlohmann::json& line);
    void start();
    void takeStep(StepRecord step);
    void flushStep();
    void takeEpoch(EpochRecord epoch);
    void takeTrace(const ProbeTrace& trace);
    void warnBadLine(const std::string& what);

    TrainerObserver& observer_;
    HelloHandler on_hello_;
    std::filesystem::path trace_dir_;
    SummaryBuilder summary_;
    std::optional<ProbeHello> hello_;
    std::optional<ProbeBye> bye_;
    bool started_ = false;
    std::optional<StepRecord> held_;
    MemoryByCategory memory_; // the latest categories, carried to later steps
    int64_t line_number_ = 0;
    int bad_lines_ = 0;
    int64_t steps_ = 0;
    int64_t epoch_first_step_ = 0; // global step of the current epoch's first
    double last_wall_s_ = 0;
    int windows_ = 0;
    // The current epoch's figures, for its EpochRecord.
    double epoch_samples_ = 0;
    double epoch_ms_ = 0;
    double epoch_loss_sum_ = 0;
    int64_t epoch_losses_ = 0;
    double last_lr_ = 0;
};

} // namespace ts::scriptrun
