#include "experiments/PruneJob.h"

#include <exception>
#include <filesystem>

#include "common/FinishOnOwnerThread.h"
#include "report/RunDirectory.h"

namespace ts::gui {

PruneJob::PruneJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PruneOutcome>();
}

PruneJob::~PruneJob() {
    if (thread_.joinable()) thread_.join();
}

bool PruneJob::start(const ExperimentRequest& request, const ExperimentConfig& base,
                     const QString& runsRoot, QString* error) {
    if (running_) {
        if (error) *error = tr("A pruning study is already running.");
        return false;
    }
    PruneStudyOptions options;
    std::filesystem::path dir;
    try {
        options = pruneOptionsFor(request, base);
        dir = makeRunDirectory(runsRoot.toStdString(), base.name + "-pruned");
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    if (thread_.joinable()) thread_.join(); // the previous study's finished thread
    dir_ = QString::fromStdString(dir.string());
    running_ = true;
    thread_ = std::thread([this, options] { run(options); });
    return true;
}

void PruneJob::run(PruneStudyOptions options) {
    PruneOutcome outcome;
    outcome.dir = dir_;
    const std::filesystem::path dir = dir_.toStdString();
    try {
        outcome.result = runPruneStudy(options, dir);
        writePruneReport(outcome.result, dir);
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    finishOnOwnerThread(this, thread_, running_, [this, outcome] { emit finished(outcome); });
}

} // namespace ts::gui
