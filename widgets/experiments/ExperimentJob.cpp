#include "experiments/ExperimentJob.h"

#include <exception>
#include <filesystem>

#include "common/FinishOnOwnerThread.h"
#include "experiments/LadderReport.h"
#include "experiments/SweepReport.h"
#include "experiments/TrainerPointRunner.h"
#include "records/TrainerObserver.h"
#include "report/RunDirectory.h"

namespace ts::gui {

// Counts the steps of the point that runs (training thread -> atomic).
class ExperimentJob::StepCounter : public TrainerObserver {
public:
    explicit StepCounter(std::atomic<int64_t>& step) : step_(step) {}
    void onRunStarted(const RunInfo&) override { step_ = 0; }
    void onStep(const StepRecord& s) override { step_ = s.step + 1; }

private:
    std::atomic<int64_t>& step_;
};

ExperimentJob::ExperimentJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ExperimentOutcome>();
    qRegisterMetaType<SweepResult>();
    qRegisterMetaType<LadderResult>();
}

ExperimentJob::~ExperimentJob() {
    if (runner_) runner_->requestCancel();
    if (thread_.joinable()) thread_.join();
}

QString ExperimentJob::plannedLabel(int index) const {
    return index >= 0 && index < int(labels_.size()) ? labels_[size_t(index)] : QString();
}

bool ExperimentJob::start(const ExperimentRequest& request, const ExperimentConfig& base,
                          const QString& runsRoot, QString* error) {
    if (running_) {
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
            for (const SweepPoint& point : expandSweep(sweep))
                labels.push_back(QString::fromStdString(point.label()));
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
    if (thread_.joinable()) thread_.join(); // the previous experiment's finished thread
    mode_ = request.mode;
    dir_ = QString::fromStdString(dir.string());
    labels_ = std::move(labels);
    steps_per_point_ = int64_t(request.steps) + request.warmup;
    step_ = 0;
    running_ = true;
    stop_requested_ = false;
    counter_ = std::make_unique<StepCounter>(step_);
    runner_ = std::make_unique<TrainerPointRunner>(counter_.get());
    if (mode_ == ExperimentMode::Sweep)
        thread_ = std::thread([this, sweep] { runSweepThread(sweep); });
    else
        thread_ = std::thread([this, ladder] { runLadderThread(ladder); });
    return true;
}

void ExperimentJob::stop() {
    if (!running_ || stop_requested_) return;
    stop_requested_ = true;
    runner_->requestCancel();
    emit stopping();
}

void ExperimentJob::runSweepThread(SweepSpec spec) {
    ExperimentOutcome outcome{ExperimentMode::Sweep, dir_, {}, false, 0};
    const std::filesystem::path dir = dir_.toStdString();
    try {
        const SweepResult result =
            runSweep(spec, *runner_, dir, [this, &dir](const SweepRow&, const SweepResult& so_far) {
                writeSweepReport(so_far, dir);
                QMetaObject::invokeMethod(
                    this, [this, so_far] { emit sweepProgress(so_far); }, Qt::QueuedConnection);
            });
        outcome.completed = int(result.completed());
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    outcome.cancelled = runner_->cancelled();
    post(std::move(outcome));
}

void ExperimentJob::runLadderThread(LadderSpec spec) {
    ExperimentOutcome outcome{ExperimentMode::Ladder, dir_, {}, false, 0};
    const std::filesystem::path dir = dir_.toStdString();
    try {
        const LadderContext context = probeLadderContext(spec.base.device);
        const LadderResult result = runLadder(
            spec, context, *runner_, dir, [this, &dir](const RungRow&, const LadderResult& so_far) {
                writeLadderReport(so_far, dir);
                QMetaObject::invokeMethod(
                    this, [this, so_far] { emit ladderProgress(so_far); }, Qt::QueuedConnection);
            });
        for (const RungRow& row : result.rows)
            outcome.completed += row.ran && row.result.outcome == PointOutcome::Completed;
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    outcome.cancelled = runner_->cancelled();
    post(std::move(outcome));
}

void ExperimentJob::post(ExperimentOutcome outcome) {
    finishOnOwnerThread(this, thread_, running_, [this, outcome] { emit finished(outcome); });
}

} // namespace ts::gui
