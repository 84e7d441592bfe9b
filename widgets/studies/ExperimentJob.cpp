#include "studies/ExperimentJob.h"

#include <exception>
#include <filesystem>

#include "backend/TorchBackendLoader.h"
#include "experiments/LadderReport.h"
#include "experiments/SweepReport.h"
#include "report/RunDirectory.h"

namespace ts::gui {
namespace {

// A tick can span the end of one point and the start of the next: a new
// point drops what the GUI has not taken of the previous one, so the live
// chart never mixes two points (the finished point arrives as its row).
class PointLiveBuffer : public LiveBuffer {
public:
    void onRunStarted(const RunInfo& info) override {
        clear();
        LiveBuffer::onRunStarted(info);
    }
};

} // namespace

ExperimentJob::ExperimentJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ExperimentOutcome>();
    qRegisterMetaType<LadderRungUpdate>();
    qRegisterMetaType<SweepRow>();
    qRegisterMetaType<LiveUpdate>();
    job_.setDrain([this] { drain(); });
    job_.setStopHook([this] { runner_->requestCancel(); });
    connect(&job_, &BackgroundJob::stopping, this, &ExperimentJob::stopping);
    connect(&job_, &BackgroundJob::finished, this, [this] { emit finished(outcome_); });
}

ExperimentJob::~ExperimentJob() {
    job_.stopAndJoin();
}

QString ExperimentJob::plannedLabel(int index) const {
    return index >= 0 && index < int(labels_.size()) ? labels_[size_t(index)] : QString();
}

bool ExperimentJob::start(const ExperimentRequest& request, const ExperimentConfig& base,
                          const QString& runsRoot, QString* error) {
    if (isRunning()) {
        if (error) *error = tr("A sweep or ladder is already running; stop it first.");
        return false;
    }
    SweepSpec sweep;
    LadderSpec ladder;
    std::vector<QString> labels;
    std::filesystem::path dir;
    try {
        if (request.mode == ExperimentMode::Sweep) {
            sweep = sweepSpecFor(request, base);
            const auto points = expandSweep(sweep, torchBackend().deviceSupport());
            for (const SweepPoint& point : points)
                labels.push_back(QString::fromStdString(point.label()));
            // Later rounds, in the order runSweep takes them (every other one backwards).
            for (int round = 2; round <= sweep.repeat; ++round)
                for (size_t i = 0; i < points.size(); ++i) {
                    const auto& point = round % 2 == 0 ? points[points.size() - 1 - i] : points[i];
                    labels.push_back(
                        tr("%1, round %2").arg(QString::fromStdString(point.label())).arg(round));
                }
        } else {
            ladder = ladderSpecFor(request, base);
            for (const std::string& id : ladderRungIds())
                labels.push_back(QString::fromStdString(id));
        }
        const char* suffix = request.mode == ExperimentMode::Sweep ? "-sweep" : "-ladder";
        dir = makeRunDirectory(runsRoot.toStdString(), base.name + suffix);
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    mode_ = request.mode;
    dir_ = QString::fromStdString(dir.string());
    sweep_spec_ = std::move(sweep);
    ladder_spec_ = std::move(ladder);
    labels_ = std::move(labels);
    steps_per_point_ = int64_t(request.steps) + request.warmup;
    current_step_ = 0;
    outcome_ = ExperimentOutcome{mode_, dir_, {}, false, 0};
    live_ = std::make_unique<PointLiveBuffer>();
    runner_ = torchBackend().pointRunner(live_.get());
    if (mode_ == ExperimentMode::Sweep)
        job_.start([this] { runSweepWork(); });
    else
        job_.start([this] { runLadderWork(); });
    return true;
}

void ExperimentJob::stop() {
    job_.requestStop();
}

// Worker thread: reads only what start() set before the thread began.
void ExperimentJob::runSweepWork() {
    const std::filesystem::path dir = dir_.toStdString();
    try {
        const SweepResult result =
            runSweep(sweep_spec_, *runner_, dir,
                     [this, &dir](const SweepRow& row, const SweepResult& so_far) {
                         writeSweepReport(so_far, dir);
                         sweep_rows_.push(row);
                     });
        // The intervals and "vs best" of the last round, on every row.
        writeSweepReport(result, dir);
        for (const SweepRow& row : result.rows)
            sweep_rows_.push(row);
        outcome_.completed = int(result.completed());
    } catch (const std::exception& e) {
        outcome_.error = QString::fromUtf8(e.what());
    }
    outcome_.cancelled = runner_->cancelled();
}

void ExperimentJob::runLadderWork() {
    const std::filesystem::path dir = dir_.toStdString();
    try {
        const LadderContext context = torchBackend().probeLadderContext(ladder_spec_.base.device);
        const LadderResult result = runLadder(
            ladder_spec_, context, *runner_, dir,
            [this, &dir](const RungRow& row, const LadderResult& so_far) {
                writeLadderReport(so_far, dir);
                rungs_.push({row, so_far.baseline_images_per_sec, so_far.best_images_per_sec});
            });
        for (const RungRow& row : result.rows)
            outcome_.completed += row.ran && row.result.outcome == PointOutcome::Completed;
    } catch (const std::exception& e) {
        outcome_.error = QString::fromUtf8(e.what());
    }
    outcome_.cancelled = runner_->cancelled();
}

// Owner thread, once per tick: the running point's steps first, then the
// points that finished, each in the order the worker produced them.
void ExperimentJob::drain() {
    LiveUpdate update = live_->take();
    if (!update.empty()) {
        if (update.started) current_step_ = 0;
        if (!update.steps.empty()) current_step_ = update.steps.back().step + 1;
        emit liveUpdated(update);
    }
    for (const SweepRow& row : sweep_rows_.take())
        emit sweepProgress(row);
    for (const LadderRungUpdate& rung : rungs_.take())
        emit ladderProgress(rung);
}

} // namespace ts::gui
