#pragma once
// What the Experiments view's controls ask for, and its translation into
// core's sweep and ladder specs and pruning study options (so the view holds
// no experiment logic).
#include <QMetaType>
#include <QString>

#include "experiments/Ladder.h"
#include "experiments/PruneStudy.h"
#include "experiments/Sweep.h"

namespace ts::gui {

enum class ExperimentMode { Sweep, Ladder, Prune };

// Largest step, warm-up and latency-run counts the controls accept (and a
// stored request may hold).
constexpr int kMaxExperimentSteps = 100000;
constexpr int kMaxLatencyRuns = 10000;
constexpr int kMaxRounds = 50;

struct ExperimentRequest {
    ExperimentMode mode = ExperimentMode::Sweep;
    QString key = QStringLiteral("batch_size");
    QString values = QStringLiteral("16,32,64,128");
    QString key2;    // empty: a one-dimensional sweep
    QString values2; // comma-separated values of key2
    int steps = 20;  // measured steps per point / rung
    int warmup = 5;  // steps before them, left out of the medians
    // Sweep: rounds over all points (1 = one run each, no interval). Ladder:
    // rounds per rung against the best so far (at least 2), up to two more
    // while the gain's interval straddles the margin.
    int rounds = 3;
    // Prune: trained weights, pruned and evaluated on the form's experiment.
    QString weights;      // Trainscope checkpoint or state_dict file
    PruneOptions prune;   // amount, structured (channels, norm), global, fc layer
    int latencyRuns = 20; // timed forward passes before and after (median)
};

// The base config with the request's keys and counts. Throws ConfigError
// naming the key or value (unknown key, a value that does not fit it, values
// without a key).
SweepSpec sweepSpecFor(const ExperimentRequest& request, const ExperimentConfig& base);
LadderSpec ladderSpecFor(const ExperimentRequest& request, const ExperimentConfig& base);
// Throws ConfigError for a missing weights file or bad options (the
// runPruneStudy check's text), before anything is created.
PruneStudyOptions pruneOptionsFor(const ExperimentRequest& request, const ExperimentConfig& base);

// The request as the settings file keeps it. Reading restores what it can: a
// field that is missing, of the wrong type or out of range keeps its default,
// so an older or hand-edited settings file never breaks the view.
QString requestToJson(const ExperimentRequest& request);
ExperimentRequest requestFromJson(const QString& json);

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::ExperimentRequest)
