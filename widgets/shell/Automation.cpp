#include "shell/Automation.h"

#include <cstdio>
#include <utility>

#include <QSpinBox>
#include <QTableView>

#include "common/DocumentSelection.h"
#include "inspect/LiveJobTables.h"
#include "livejobs/LiveJobModels.h"
#include "livejobs/LiveJobsPanel.h"
#include "livejobs/TraceControls.h"
#include "ondemand/TraceFiles.h"
#include "runs/RunModels.h"
#include "runs/RunsView.h"
#include "shell/CompareSelector.h"
#include "shell/DocumentLoader.h"
#include "shell/DocumentPages.h"
#include "shell/DocumentSelector.h"
#include "shell/MainWindow.h"
#include "sql/QueryView.h"
#include "timeline/AreaPanel.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "training/RunController.h"

namespace ts::gui {
namespace {

constexpr int kComparedRunsInScreenshots = 4;
constexpr int kPollMs = 100;
// libkineto polls every 5 s: by then every process of a job has polled once.
constexpr qint64 kLivePollWaitMs = 5500;
constexpr qint64 kLiveJobTimeoutMs = 60000;
// The steps asked, the trace written, then read: a slow job takes a while.
constexpr qint64 kLiveTraceTimeoutMs = 300000;

} // namespace

Automation::Automation(MainWindow& window, LaunchOptions options, QObject* parent)
    : QObject(parent), window_(window), options_(std::move(options)) {
    settle_.setSingleShot(true);
    connect(&settle_, &QTimer::timeout, this, &Automation::finish);
    connect(&window_, &MainWindow::documentShown, this, &Automation::afterOpen);
    connect(window_.controller(), &RunController::runFinished, this, &Automation::afterRun);
    connect(&window_, &MainWindow::errorReported, this, [this](const QString& message) {
        if (waiting_run_ && !window_.controller()->isRunning())
            fail(message); // refused or failed
        else if (waiting_opens_ == 0)
            std::fprintf(stderr, "trainscope: %s\n", qPrintable(message));
    });
}

// All paths are handed over at once: the loader opens them in order, so the
// last one is what the window shows when the screenshot is taken.
void Automation::begin() {
    live_clock_.start();
    waiting_opens_ = int(options_.open.size());
    if (options_.open.isEmpty()) return startRunOrFinish();
    for (const QString& path : options_.open)
        window_.openPath(path);
}

void Automation::afterOpen(const OpenedDocument& document) {
    if (waiting_opens_ == 0) return;
    --waiting_opens_;
    if (!document.ok()) {
        fail(document.cancelled
                 ? tr("Opening %1 was cancelled.").arg(QString::fromStdString(document.path))
                 : QString::fromStdString(document.error));
        return;
    }
    if (waiting_opens_ == 0) startRunOrFinish();
}

void Automation::startRunOrFinish() {
    if (options_.live_jobs) {
        followLiveJobs();
        return;
    }
    if (!options_.run) {
        finishWhenSettled();
        return;
    }
    waiting_run_ = true;
    window_.startRun();
}

void Automation::followLiveJobs() {
    if (!options_.live_jobs) return; // failed meanwhile
    LiveJobsPanel* panel = window_.liveJobs();
    const qint64 waited = live_clock_.elapsed();
    const auto later = [this] { QTimer::singleShot(kPollMs, this, &Automation::followLiveJobs); };
    if (!panel->daemonRunning()) {
        // The panel says who holds the socket: the screenshot shows it.
        if (options_.trace_steps > 0) {
            fail(panel->statusText());
            return;
        }
    } else if (options_.trace_steps == 0) {
        if (waited < kLivePollWaitMs) {
            later();
            return;
        }
    } else if (live_ticket_ == 0) {
        if (waited > kLiveJobTimeoutMs) {
            fail(tr("--trace-steps: no PyTorch process polled in %1 s. %2.")
                     .arg(kLiveJobTimeoutMs / 1000)
                     .arg(QString::fromUtf8(kHowToStartTracedJob)));
            return;
        }
        if (waited >= kLivePollWaitMs && panel->processModel()->rowCount() > 0 && !traceFirstJob())
            return;
        later();
        return;
    } else {
        const std::optional<ondemand::TraceTicket> ticket = panel->ticket(live_ticket_);
        if (!ticket || (ticket->finished() && !ticket->succeeded())) {
            fail(tr("--trace-steps: %1").arg(panel->noticeText()));
            return;
        }
        const QString output = QString::fromStdString(ondemand::ticketOutput(*ticket));
        if (!ticket->succeeded() || window_.documents()->indexOf(documentPath(output)) < 0) {
            if (waited > kLiveTraceTimeoutMs)
                fail(tr("--trace-steps: no trace in %1 s (%2)")
                         .arg(kLiveTraceTimeoutMs / 1000)
                         .arg(QString::fromStdString(ticketStatus(*ticket))));
            else
                later();
            return;
        }
    }
    options_.live_jobs = false;
    startRunOrFinish();
}

// The whole job of the first process listed (the panel's order: by job).
bool Automation::traceFirstJob() {
    LiveJobsPanel* panel = window_.liveJobs();
    const ondemand::LiveProcess& first = panel->processModel()->rowAt(0);
    panel->selectProcess(first.pid);
    panel->controls()->stepsBox()->setValue(options_.trace_steps);
    live_ticket_ = panel->trace({0, first.job});
    if (live_ticket_ == 0) fail(tr("--trace-steps: %1").arg(panel->noticeText()));
    return live_ticket_ != 0;
}

void Automation::afterRun(const RunOutcome& outcome) {
    if (!waiting_run_) return;
    waiting_run_ = false;
    if (outcome.summary.status == RunStatus::Failed) {
        fail(QString::fromStdString(outcome.summary.error));
        return;
    }
    std::fprintf(stdout, "run %s: %s\n", toString(outcome.summary.status),
                 qPrintable(outcome.runDir));
    finishWhenSettled();
}

// Picks the tab, waits for background work that changes it (run scan, a
// large trace's tabs being analysed), then
// leaves the charts a moment for their queued replots.
void Automation::finishWhenSettled() {
    if (!options_.view.isEmpty()) window_.showView(options_.view);
    if (window_.loader()->busy() || window_.pages()->busy()) {
        QTimer::singleShot(kPollMs, this, &Automation::finishWhenSettled);
        return;
    }
    auto* timeline = window_.page<TimelineView>("timeline");
    auto* query_view = window_.page<QueryView>("query");
    if (const QString with = std::exchange(options_.compare_with, QString());
        !with.isEmpty() && !compareWith(with)) {
        fail(tr("--compare-with %1: give it with --open too").arg(with));
        return;
    }
    if (const qint64 step = std::exchange(options_.step, -1); step >= 0 && !pickStep(step)) {
        fail(tr("--step %1: the opened trace has no ProfilerStep#%1").arg(step));
        return;
    }
    // Taken out first: fail() comes back here, and must not search again.
    const QString find = std::exchange(options_.find, QString());
    if (!find.isEmpty() && !timeline->findAndZoom(find)) {
        fail(tr("--find '%1': no event of the opened trace has that in its name").arg(find));
        return;
    }
    const QString query = std::exchange(options_.query, QString());
    if (!query.isEmpty()) {
        window_.showView(QStringLiteral("query"));
        query_view->setSql(query);
        if (!query_view->run()) {
            fail(tr("--query: no trace to query (give --open TRACE)"));
            return;
        }
        QTimer::singleShot(kPollMs, this, &Automation::finishWhenSettled);
        return;
    }
    if (std::exchange(options_.area, false)) {
        TimelineWidget* widget = timeline->timeline();
        if (widget->selectedEvent() < 0) {
            fail(tr("--area needs an event: give --find TEXT"));
            return;
        }
        widget->selectAreaOfEvent(widget->selectedEvent());
        QTimer::singleShot(kPollMs, this, &Automation::finishWhenSettled);
        return;
    }
    if (std::exchange(options_.critical_path, false) && !timeline->showCriticalPath(true)) {
        fail(tr("--critical-path: the opened trace has no critical path (no GPU diagnoses, or "
                "no operators in its first step)"));
        return;
    }
    auto* runs = window_.page<RunsView>("runs");
    if (window_.currentView() == views::findView("runs") &&
        runs->runTable()->selectionModel()->selectedRows().isEmpty()) {
        QStringList newest;
        for (int i = 0; i < qMin(kComparedRunsInScreenshots, runs->runModel()->rowCount()); ++i)
            newest << QString::fromStdString(runs->runModel()->rowAt(i).dir);
        runs->selectRuns(newest);
    }
    settle_.start(kSettleMs);
}

bool Automation::compareWith(const QString& path) {
    const int index = window_.documents()->indexOf(documentPath(path));
    if (index < 0) return false;
    window_.compareSelector()->choose(index);
    return true;
}

bool Automation::pickStep(qint64 step) {
    const OpenedDocument* doc = window_.pages()->shown();
    if (!doc || !doc->trace) return false;
    for (const StepMark& mark : doc->trace->steps)
        if (mark.step == step) {
            window_.selection()->selectStep(step, mark.start_ns, mark.end_ns);
            return true;
        }
    return false;
}

void Automation::finish() {
    if (!options_.screenshot.isEmpty()) {
        if (window_.grab().save(options_.screenshot)) {
            std::fprintf(stdout, "screenshot %s\n", qPrintable(options_.screenshot));
        } else {
            std::fprintf(stderr, "trainscope: cannot write the screenshot %s.\n",
                         qPrintable(options_.screenshot));
            exit_code_ = 1;
        }
    }
    std::fflush(stdout);
    if (options_.quit_when_done) emit finished(exit_code_);
}

void Automation::fail(const QString& message) {
    std::fprintf(stderr, "trainscope: %s\n", qPrintable(message));
    exit_code_ = 1;
    waiting_opens_ = 0;
    waiting_run_ = false;
    options_.live_jobs = false;
    finishWhenSettled();
}

} // namespace ts::gui
