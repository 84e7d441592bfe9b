#pragma once
// The Live jobs panel: Trainscope as Kineto's on-demand daemon
// (ondemand/OnDemandDaemon.h) in the GUI. It lists the PyTorch processes
// started with KINETO_USE_DAEMON=1 that poll it, by job; traces the next
// steps of the selected process or of its whole job (TraceControls); and
// lists every trace asked, newest first, as it goes (waiting for the next
// poll, tracing, written), asking the window to open each once written.
// The daemon serves its socket on its own thread; the panel only reads
// snapshots of it, a few times a second. It binds the socket when the panel
// is first shown (the GUI never takes it unasked) and lets it go when
// stopped or destroyed; when the socket is taken it says by whom, and what
// to do when that is dynolog.
#include <memory>
#include <optional>
#include <set>

#include <QTimer>
#include <QWidget>

#include "ondemand/LiveJobs.h"

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace ts::ondemand {
class OnDemandDaemon;
}

namespace ts::gui {

class AppSettings;
class LiveProcessModel;
class SortFilterProxy;
class TraceControls;
class TraceHistoryModel;

class LiveJobsPanel : public QWidget {
    Q_OBJECT
public:
    // How often the panel reads the daemon's state.
    static constexpr int kRefreshMs = 250;

    explicit LiveJobsPanel(AppSettings& settings, QWidget* parent = nullptr);
    ~LiveJobsPanel() override;

    // Another socket name than libkineto's "dynolog" (tests); set before the
    // panel is first shown.
    void setSocketName(const QString& name) { socket_name_ = name; }
    // Binds the socket unless bound; false with statusText() saying why.
    bool startDaemon();
    void stopDaemon();
    bool daemonRunning() const { return daemon_ != nullptr; }
    // Reads the daemon's state now (the timer does every kRefreshMs).
    void refresh();

    // Asks `target` for a trace with the controls' request into their
    // folder; the ticket's id, or 0 with noticeText() saying why.
    int trace(const ondemand::TraceTarget& target);
    // The selected process, or its whole job.
    int traceSelected(bool whole_job);
    std::optional<ondemand::TraceTicket> ticket(int id) const;

    QString statusText() const;
    QString noticeText() const;
    LiveProcessModel* processModel() const { return processes_; }
    TraceHistoryModel* historyModel() const { return history_; }
    QTableView* processTable() const { return process_table_; }
    QTableView* historyTable() const { return history_table_; }
    TraceControls* controls() const { return controls_; }
    QPushButton* retryButton() const { return retry_; }
    QPushButton* openButton() const { return open_; }
    QPushButton* diffButton() const { return diff_; }
    // Selects the process `pid` in the table (automation, tests).
    bool selectProcess(int pid);
    // Selects these traces (by ticket id) in the history.
    void selectTraces(const std::vector<int>& tickets);

signals:
    // A trace was written (or is asked for again): open it as a document.
    void openRequested(const QString& path);
    // Two traces of the history, older first: compare them in the Diff view.
    void diffRequested(const QString& before, const QString& after);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildProcesses();
    QWidget* buildHistory();
    void showStatus();
    void setNotice(const QString& text, bool error);
    void openWritten(const std::vector<ondemand::TraceTicket>& tickets);
    std::optional<ondemand::LiveProcess> selectedProcess() const;
    // The selected traces that have something written, newest first.
    std::vector<ondemand::TraceTicket> selectedTraces() const;
    void updateHistoryButtons();

    AppSettings& settings_;
    QString socket_name_;
    std::unique_ptr<ondemand::OnDemandDaemon> daemon_;
    QString start_error_; // why the daemon is not running (rich text)
    bool started_once_ = false;
    std::set<int> opened_; // tickets whose trace was handed to the window
    QTimer timer_;
    QLabel* status_;
    QPushButton* retry_;
    QStackedWidget* process_stack_;
    QLabel* empty_;
    LiveProcessModel* processes_;
    SortFilterProxy* process_proxy_;
    QTableView* process_table_;
    TraceControls* controls_;
    QLabel* notice_;
    TraceHistoryModel* history_;
    SortFilterProxy* history_proxy_;
    QTableView* history_table_;
    QPushButton* open_;
    QPushButton* diff_;
};

} // namespace ts::gui
