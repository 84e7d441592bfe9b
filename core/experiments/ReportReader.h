#pragma once
// Reads a sweep or ladder directory back from the sweep.csv / ladder.csv that
// writeSweepReport / writeLadderReport wrote (the GUI's Open…). What the CSV
// holds comes back: every row with its figures, the swept keys, the experiment
// name (from the Markdown title when present). Configs are not restored.
// A pruning directory comes back from prune.json and prune_layers.csv
// (writePruneReport).
#include <filesystem>
#include <stdexcept>

#include "experiments/Ladder.h"
#include "experiments/PruneStudy.h"
#include "experiments/Sweep.h"

namespace ts {

// what() names the file and what is wrong with it.
class ReportFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ReportKind { None, Sweep, Ladder, Prune };
// Sweep when `dir` holds sweep.csv, Ladder when it holds ladder.csv, Prune
// when it holds prune.json.
ReportKind reportKind(const std::filesystem::path& dir);

// "ok", "failed", "oom", "skipped" (toString(PointOutcome)) back to the outcome.
bool pointOutcomeFromString(const std::string& text, PointOutcome& outcome);

SweepResult readSweepReport(const std::filesystem::path& dir);
LadderResult readLadderReport(const std::filesystem::path& dir);
// The summary, the method (when prune.json records it) and every layer; what
// neither file holds (the evaluation's per-class figures) stays default.
PruneStudyResult readPruneReport(const std::filesystem::path& dir);

// A study's directory read back, whichever of the three it is.
struct ExperimentReport {
    ReportKind kind = ReportKind::None;
    SweepResult sweep;      // kind Sweep
    LadderResult ladder;    // kind Ladder
    PruneStudyResult prune; // kind Prune
};
// Throws ReportFormatError, also for a directory that holds none of them.
ExperimentReport readExperimentReport(const std::filesystem::path& dir);

// The same from the CSV text; `origin` names it in error messages.
SweepResult parseSweepCsv(const std::string& text, const std::string& origin);
LadderResult parseLadderCsv(const std::string& text, const std::string& origin);

} // namespace ts
