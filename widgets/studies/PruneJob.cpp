#include "studies/PruneJob.h"

#include <exception>
#include <filesystem>

#include "backend/TorchBackendLoader.h"
#include "report/RunDirectory.h"

namespace ts::gui {

PruneJob::PruneJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PruneOutcome>();
    connect(&job_, &BackgroundJob::finished, this, [this] { emit finished(outcome_); });
}

PruneJob::~PruneJob() {
    job_.stopAndJoin();
}

bool PruneJob::start(const ExperimentRequest& request, const ExperimentConfig& base,
                     const QString& runsRoot, QString* error) {
    if (isRunning()) {
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
    dir_ = QString::fromStdString(dir.string());
    outcome_ = PruneOutcome();
    outcome_.dir = dir_;
    job_.start([this, options] { run(options); });
    return true;
}

void PruneJob::run(const PruneStudyOptions& options) {
    const std::filesystem::path dir = dir_.toStdString();
    try {
        outcome_.result = torchBackend().runPruneStudy(options, dir);
        writePruneReport(outcome_.result, dir);
    } catch (const std::exception& e) {
        outcome_.error = QString::fromUtf8(e.what());
    }
}

} // namespace ts::gui
