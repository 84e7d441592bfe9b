#include "training/RunController.h"

#include <filesystem>
#include <sstream>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include "backend/TorchBackendLoader.h"
#include "report/RunDirectory.h"
#include "training/JobWorker.h"
#include "training/RunWorker.h"
#include "training/ScriptWorker.h"

namespace ts::gui {
namespace {

QString describeIssues(const std::vector<ConfigIssue>& issues) {
    std::ostringstream text;
    text << "The experiment cannot start:";
    for (const ConfigIssue& issue : issues)
        text << "\n• " << issue.key << ": " << issue.message;
    return QString::fromStdString(text.str());
}

} // namespace

RunController::RunController(QObject* parent)
    : QObject(parent), runs_root_(QDir::current().absoluteFilePath(QStringLiteral("runs"))),
      cli_path_(QDir(QCoreApplication::applicationDirPath())
                    .absoluteFilePath(QStringLiteral("trainscope-cli"))) {
    qRegisterMetaType<LiveUpdate>();
    qRegisterMetaType<RunLaunch>();
    qRegisterMetaType<RunProgress>();
    qRegisterMetaType<RunOutcome>();
    job_.setDrain([this] { tick(); });
    job_.setStopHook([this] {
        if (worker_) worker_->requestStop();
    });
    connect(&job_, &BackgroundJob::finished, this, &RunController::onWorkerFinished);
}

RunController::~RunController() {
    job_.stopAndJoin();
}

void RunController::start(const ExperimentConfig& config, int processes) {
    if (worker_) {
        emit startFailed(tr("A run is already in progress; stop it first."));
        return;
    }
    std::vector<ConfigIssue> issues;
    try {
        issues = torchBackend().validate(config); // waits for LibTorch if it is still loading
    } catch (const std::exception& e) {
        emit startFailed(QString::fromUtf8(e.what()));
        return;
    }
    if (!issues.empty()) {
        emit startFailed(describeIssues(issues));
        return;
    }
    if (processes < 1 || processes > kMaxProcesses) {
        emit startFailed(tr("Processes: %1 is not 1 to %2.").arg(processes).arg(kMaxProcesses));
        return;
    }
    if (processes > 1 && !QFileInfo(cli_path_).isExecutable()) {
        emit startFailed(tr("A run of %1 processes is launched by trainscope-cli, which was not "
                            "found at %2. Build or install it beside trainscope.")
                             .arg(processes)
                             .arg(cli_path_));
        return;
    }
    const std::filesystem::path dir =
        makeDir([&] { return runDirectoryFor(runs_root_.toStdString(), config); });
    if (dir.empty()) return;
    if (processes > 1)
        launch(
            std::make_unique<JobWorker>(config, processes, dir, cli_path_.toStdString(), buffer_),
            RunLaunch{config, current_dir_, processes});
    else
        launch(std::make_unique<RunWorker>(config, dir, buffer_, checkpoints_),
               RunLaunch{config, current_dir_, processes});
}

void RunController::startScript(const scriptrun::ScriptRunOptions& options) {
    if (worker_) {
        emit startFailed(tr("A run is already in progress; stop it first."));
        return;
    }
    const std::vector<ConfigIssue> problems = scriptrun::checkScriptOptions(options);
    if (!problems.empty()) {
        QString text = tr("The script cannot start:");
        for (const ConfigIssue& problem : problems)
            text += QStringLiteral("\n• ") + QString::fromStdString(problem.message);
        emit startFailed(text);
        return;
    }
    scriptrun::ScriptRunOptions run = options;
    run.runs_root = runs_root_.toStdString();
    run.out_dir = makeDir([&] { return makeRunDirectory(run.runs_root, run.label()); });
    if (run.out_dir.empty()) return;
    RunLaunch started;
    started.config.name = run.label();
    started.config.model = "script";
    started.config.model_path = run.script.empty() ? run.module : run.script;
    started.runDir = current_dir_;
    started.processes = run.nproc_per_node;
    started.script = true;
    auto worker = std::make_unique<ScriptWorker>(std::move(run), buffer_);
    script_control_ = &worker->control();
    launch(std::move(worker), started);
}

void RunController::traceNextSteps(int steps) {
    if (script_control_) script_control_->traceNextSteps(steps);
}

void RunController::memorySnapshot() {
    if (script_control_) script_control_->memorySnapshot();
}

std::filesystem::path RunController::makeDir(const std::function<std::filesystem::path()>& make) {
    std::filesystem::path dir;
    try {
        dir = make();
    } catch (const std::exception& error) {
        emit startFailed(tr("Cannot create a run directory under %1: %2")
                             .arg(runs_root_, QString::fromUtf8(error.what())));
        return {};
    }
    current_dir_ = QString::fromStdString(dir.string());
    return dir;
}

void RunController::launch(std::unique_ptr<TrainingWork> worker, const RunLaunch& launch) {
    buffer_.clear();
    progress_ = ProgressEstimator();
    worker_ = std::move(worker);
    job_.start([worker = worker_.get()] { worker->run(); });
    emit runStarted(launch);
}

void RunController::stop() {
    if (!worker_) return;
    job_.requestStop();
    emit stopRequested();
}

void RunController::tick() {
    LiveUpdate update = buffer_.take();
    if (update.empty()) return;
    progress_.add(update);
    emit updated(update);
    emit progressChanged(progress_.progress());
}

// The job has already drained what arrived after the last tick.
void RunController::onWorkerFinished() {
    RunOutcome outcome{worker_->summary(), current_dir_};
    script_control_ = nullptr;
    worker_.reset();
    if (!std::filesystem::exists(std::filesystem::path(current_dir_.toStdString()) /
                                 run_files::kRunJson)) {
        discardEmptyRunDir();
        outcome.runDir.clear();
    }
    emit runFinished(outcome);
}

// A run that never started (the Trainer rejected the config, a job's launcher
// refused it) leaves at most an empty steps.csv and a job's launch files;
// remove them so the Runs view does not list a ghost run.
void RunController::discardEmptyRunDir() {
    const std::filesystem::path dir = current_dir_.toStdString();
    std::error_code ignored;
    std::filesystem::remove(dir / JobWorker::kConfigFile, ignored);
    std::filesystem::remove(dir / JobWorker::kLogFile, ignored);
    discardUnstartedRun(dir, /*made_for_it=*/true);
    current_dir_.clear();
}

} // namespace ts::gui
