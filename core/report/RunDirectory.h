#pragma once
// One run = one directory: run.json (config, environment, per-epoch metrics,
// summary), steps.csv (one row per step), and when profiled ops.csv,
// trace.json, memory.csv; plus checkpoints. GUI and CLI both write and read it.
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/Records.h"
#include "records/TrainerObserver.h"
#include "util/FileDescriptor.h"

namespace ts {

class RunContinuation;

namespace run_files {
inline constexpr const char* kRunJson = "run.json";
inline constexpr const char* kStepsCsv = "steps.csv";
inline constexpr const char* kOpsCsv = "ops.csv";
inline constexpr const char* kTraceJson = "trace.json";
inline constexpr const char* kMemoryCsv = "memory.csv";
// What a data-parallel job's launcher reads: the config the GUI or a sweep hands it.
inline constexpr const char* kLaunchConfig = "launch_config.json";
} // namespace run_files

// Thrown when a run directory or one of its files cannot be read; what() names
// the file and what was wrong.
class RunFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RunRecord {
    std::filesystem::path dir;
    RunInfo info;
    std::vector<EpochRecord> epochs;
    std::vector<StepRecord> steps;
    RunSummary summary;
    nlohmann::json profile; // profiling summary (top ops, breakdown), null if none
    bool hasTrace() const;
    bool hasOps() const;
};

// Reads run.json and steps.csv (steps optional when `with_steps` is false).
RunRecord loadRun(const std::filesystem::path& dir, bool with_steps = true);
// Directories below `root` (one level, and root itself) holding a run.json,
// newest first.
std::vector<std::filesystem::path> findRuns(const std::filesystem::path& root);
// A run refused before it started (no run.json yet): removes the steps.csv
// its recorder opened and, when `made_for_it`, the directory once empty.
// A directory holding run.json is left as it is.
void discardUnstartedRun(const std::filesystem::path& dir, bool made_for_it);
// runs/<yyyymmdd-hhmmss>-<name>, made unique; created.
std::filesystem::path makeRunDirectory(const std::filesystem::path& root, const std::string& name);
// Where a run writes when no directory is given: the run directory `resume`
// names when it holds a run (the run continues there), else a new one under root.
std::filesystem::path runDirectoryFor(const std::filesystem::path& root,
                                      const ExperimentConfig& config);

// JSON forms, also used by --json outputs.
nlohmann::json toJson(const EpochRecord& e);
nlohmann::json toJson(const RunSummary& s);
nlohmann::json toJson(const EnvironmentInfo& env);
nlohmann::json toJson(const RunInfo& info);
nlohmann::json toJson(const PhaseTimes& p);
nlohmann::json toJson(const DistributedSummary& d);
nlohmann::json toJson(const MemoryByCategory& m);
nlohmann::json toJson(const ScriptSource& s);
ScriptSource scriptSourceFromJson(const nlohmann::json& j);
MemoryByCategory memoryFromJson(const nlohmann::json& j);
DistributedSummary distributedFromJson(const nlohmann::json& j);
EpochRecord epochFromJson(const nlohmann::json& j);
RunSummary summaryFromJson(const nlohmann::json& j);
EnvironmentInfo environmentFromJson(const nlohmann::json& j);
PhaseTimes phasesFromJson(const nlohmann::json& j);

// Observer that writes the run directory as the run goes: steps.csv row by
// row (flushed each epoch), run.json at start (status running), after every
// epoch and at the end, so a crash or cancel never loses what was measured.
// Profiling windows are written through the profiling exporters. A run that
// resumes the run recorded in its directory continues those records.
class RunRecorder : public TrainerObserver {
public:
    explicit RunRecorder(std::filesystem::path dir);
    ~RunRecorder() override;
    const std::filesystem::path& dir() const { return dir_; }
    // What run.json's summary says once the run finished: the whole run's
    // when this continues a run recorded in dir() (a resume in place), not
    // only the last process's; nullopt before the end.
    std::optional<RunSummary> recordedSummary();
    // What is known of a user's script only as it runs (its batch size, its
    // exit status, the probe's overhead): written with run.json's next update.
    void amendInfo(const RunInfo& info);

    void onRunStarted(const RunInfo& info) override;
    void onStep(const StepRecord& step) override;
    void onEpoch(const EpochRecord& epoch) override;
    void onProfile(const ProfileCapture& capture) override;
    void onMessage(LogLevel level, const std::string& text) override;
    void onRunFinished(const RunSummary& summary) override;

private:
    void writeRunJson();
    void continueEarlierRun();
    std::filesystem::path dir_;
    // The directory itself, locked (flock) while this recorder writes it: a
    // second process (a run resumed while it still trains) is refused.
    FileDescriptor lock_;
    std::mutex mutex_;
    RunInfo info_;
    std::vector<EpochRecord> epochs_;
    RunSummary summary_;
    bool finished_ = false;
    nlohmann::json profile_;
    std::vector<std::string> messages_;
    std::ofstream steps_;
    // Set when the run resumes the run recorded in dir_ (RunContinuation.h).
    std::unique_ptr<RunContinuation> continuation_;
};

// Fan-out to several observers (recorder + progress printer + GUI buffer).
class ObserverList : public TrainerObserver {
public:
    void add(TrainerObserver* observer) { observers_.push_back(observer); }
    void onRunStarted(const RunInfo& i) override {
        for (auto* o : observers_)
            o->onRunStarted(i);
    }
    void onStep(const StepRecord& s) override {
        for (auto* o : observers_)
            o->onStep(s);
    }
    void onEpoch(const EpochRecord& e) override {
        for (auto* o : observers_)
            o->onEpoch(e);
    }
    void onProfile(const ProfileCapture& c) override {
        for (auto* o : observers_)
            o->onProfile(c);
    }
    void onMessage(LogLevel l, const std::string& t) override {
        for (auto* o : observers_)
            o->onMessage(l, t);
    }
    void onRunFinished(const RunSummary& s) override {
        for (auto* o : observers_)
            o->onRunFinished(s);
    }

private:
    std::vector<TrainerObserver*> observers_;
};

} // namespace ts
