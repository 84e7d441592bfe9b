#include "livejobs/LiveJobsPanel.h"

#include <algorithm>
#include <set>

#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "inspect/LiveJobTables.h"
#include "livejobs/LiveJobModels.h"
#include "livejobs/TraceControls.h"
#include "ondemand/OnDemandDaemon.h"
#include "ondemand/TraceFiles.h"

namespace ts::gui {

namespace od = ondemand;

namespace {

// A command line or a message is cut there; its tooltip has it whole.
constexpr int kMaxColumnWidth = 280;

QString qstr(const std::string& text) {
    return QString::fromStdString(text);
}

bool anyWritten(const od::TraceTicket& ticket) {
    return std::any_of(
        ticket.processes.begin(), ticket.processes.end(),
        [](const od::ProcessTrace& t) { return t.phase == od::TracePhase::Written; });
}

QTableView* makeTable(SortFilterProxy* proxy, QAbstractItemModel* model,
                      QAbstractItemView::SelectionMode selection) {
    auto* table = new QTableView;
    TableOptions options;
    options.selection = selection;
    options.stretchLastColumn = true;
    setUpTable(table, proxy, model, options);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Fitted to their cells when other rows come (not at every refresh: a
    // column the user widened stays).
    QObject::connect(model, &QAbstractItemModel::modelReset, table, [table] {
        table->resizeColumnsToContents();
        for (int c = 0; c < table->model()->columnCount(); ++c)
            table->setColumnWidth(c, std::min(table->columnWidth(c), kMaxColumnWidth));
    });
    return table;
}

// The source rows selected in `table` (behind its proxy), in the view's order.
std::vector<int> selectedSourceRows(const QTableView* table) {
    std::vector<int> rows;
    for (const QModelIndex& index : table->selectionModel()->selectedRows())
        rows.push_back(index.data(RowRole).toInt());
    return rows;
}

void selectSourceRows(QTableView* table, const std::vector<int>& rows) {
    auto* proxy = static_cast<QSortFilterProxyModel*>(table->model());
    QItemSelection selection;
    for (int row : rows) {
        const QModelIndex index = proxy->mapFromSource(proxy->sourceModel()->index(row, 0));
        if (index.isValid()) selection.select(index, index);
    }
    table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                   QItemSelectionModel::Rows);
}

} // namespace

LiveJobsPanel::LiveJobsPanel(AppSettings& settings, QWidget* parent)
    : QWidget(parent), settings_(settings), status_(new QLabel),
      retry_(new QPushButton(tr("Retry"))), process_stack_(new QStackedWidget), empty_(new QLabel),
      processes_(new LiveProcessModel(this)), process_proxy_(new SortFilterProxy(this)),
      controls_(new TraceControls(settings)), notice_(new QLabel),
      history_(new TraceHistoryModel(this)), history_proxy_(new SortFilterProxy(this)),
      open_(new QPushButton(tr("Open"))), diff_(new QPushButton(tr("Diff"))) {
    setObjectName(QStringLiteral("liveJobsPanel"));
    status_->setObjectName(QStringLiteral("liveJobsStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    retry_->setObjectName(QStringLiteral("liveJobsRetry"));
    retry_->setToolTip(tr("Try to answer the jobs again (once the holder let the socket go)"));
    retry_->hide();
    auto* status_row = new QHBoxLayout;
    status_row->addWidget(status_, 1);
    status_row->addWidget(retry_, 0, Qt::AlignTop);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(buildProcesses());
    split->addWidget(buildHistory());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(status_row);
    layout->addWidget(split, 1);

    timer_.setInterval(kRefreshMs);
    connect(&timer_, &QTimer::timeout, this, &LiveJobsPanel::refresh);
    connect(retry_, &QPushButton::clicked, this, &LiveJobsPanel::startDaemon);
    showStatus();
}

LiveJobsPanel::~LiveJobsPanel() = default;

QWidget* LiveJobsPanel::buildProcesses() {
    empty_->setObjectName(QStringLiteral("liveJobsEmpty"));
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    empty_->setMargin(12);
    process_table_ = makeTable(process_proxy_, processes_, QAbstractItemView::SingleSelection);
    process_table_->setObjectName(QStringLiteral("liveProcesses"));
    process_stack_->addWidget(empty_);
    process_stack_->addWidget(process_table_);
    notice_->setObjectName(QStringLiteral("liveJobsNotice"));
    notice_->setWordWrap(true);
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Processes</b> — PyTorch jobs started with "
                                "KINETO_USE_DAEMON=1, by job"));
    title->setWordWrap(true);
    layout->addWidget(title);
    layout->addWidget(process_stack_, 1);
    layout->addWidget(controls_);
    layout->addWidget(notice_);
    connect(process_table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { controls_->setTargetChosen(selectedProcess().has_value()); });
    connect(controls_, &TraceControls::traceClicked, this, [this] { traceSelected(false); });
    connect(controls_, &TraceControls::jobClicked, this, [this] { traceSelected(true); });
    return box;
}

QWidget* LiveJobsPanel::buildHistory() {
    history_table_ = makeTable(history_proxy_, history_, QAbstractItemView::ExtendedSelection);
    history_table_->setObjectName(QStringLiteral("liveTraces"));
    open_->setObjectName(QStringLiteral("liveTracesOpen"));
    open_->setToolTip(tr("Open the selected traces again (or double-click one)"));
    diff_->setObjectName(QStringLiteral("liveTracesDiff"));
    diff_->setToolTip(tr("Compare two written traces (Ctrl+click both) in the Diff view: the "
                         "older as A, the newer as B"));
    auto* bar = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Traces</b> — newest first; each opens once written"));
    title->setWordWrap(true);
    bar->addWidget(title, 1);
    bar->addWidget(open_);
    bar->addWidget(diff_);
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(history_table_, 1);
    connect(history_table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &LiveJobsPanel::updateHistoryButtons);
    connect(history_table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        const od::TraceTicket& ticket = history_->rowAt(index.data(RowRole).toInt());
        if (anyWritten(ticket)) emit openRequested(qstr(od::ticketOutput(ticket)));
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        for (const od::TraceTicket& ticket : selectedTraces())
            emit openRequested(qstr(od::ticketOutput(ticket)));
    });
    connect(diff_, &QPushButton::clicked, this, [this] {
        const std::vector<od::TraceTicket> two = selectedTraces();
        if (two.size() == 2)
            emit diffRequested(qstr(od::ticketOutput(two[1])), qstr(od::ticketOutput(two[0])));
    });
    updateHistoryButtons();
    return box;
}

void LiveJobsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!std::exchange(started_once_, true)) startDaemon();
}

bool LiveJobsPanel::startDaemon() {
    if (daemon_) return true;
    started_once_ = true;
    od::OnDemandDaemon::Started started =
        socket_name_.isEmpty() ? od::OnDemandDaemon::start(od::defaultDaemonSettings())
                               : od::OnDemandDaemon::start(od::defaultDaemonSettings(),
                                                           socket_name_.toStdString(), "");
    if (!started.daemon) {
        const QString advice = qstr(socketTakenAdvice(started.holder_command, started.holder_pid));
        start_error_ = tr("Not answering the PyTorch jobs: %1.").arg(qstr(started.error)) +
                       (advice.isEmpty() ? QString() : QStringLiteral("\n") + advice);
        retry_->show();
        showStatus();
        return false;
    }
    daemon_ = std::move(started.daemon);
    start_error_.clear();
    retry_->hide();
    timer_.start();
    refresh();
    return true;
}

void LiveJobsPanel::stopDaemon() {
    timer_.stop();
    daemon_.reset();
    showStatus();
}

void LiveJobsPanel::refresh() {
    if (!daemon_) return;
    const std::optional<od::LiveProcess> chosen = selectedProcess();
    const bool had_processes = processes_->rowCount() > 0;
    const std::vector<int> traces = selectedSourceRows(history_table_);
    std::vector<int> chosen_tickets;
    for (int row : traces)
        chosen_tickets.push_back(history_->rowAt(row).id);

    processes_->show(daemon_->processes());
    std::vector<od::TraceTicket> tickets = daemon_->tickets();
    openWritten(tickets);
    history_->show(std::move(tickets));
    // A status grows as its trace goes ("tracing (1 of 2 written)").
    const int status = history_->column(live_column::kStatus);
    const int wanted = static_cast<QAbstractItemView*>(history_table_)->sizeHintForColumn(status);
    if (wanted > history_table_->columnWidth(status))
        history_table_->setColumnWidth(status, std::min(wanted, kMaxColumnWidth));

    // A process came or went (the model was reset): the same process stays
    // selected, or the first one listed is, ready to trace.
    if (!selectedProcess() && processes_->rowCount() > 0 && (chosen || !had_processes))
        selectProcess(chosen && processes_->rowOf(chosen->pid) >= 0 ? chosen->pid
                                                                    : processes_->rowAt(0).pid);
    if (selectedSourceRows(history_table_).size() != chosen_tickets.size())
        selectTraces(chosen_tickets);
    process_stack_->setCurrentWidget(processes_->rowCount() == 0 ? static_cast<QWidget*>(empty_)
                                                                 : process_table_);
    controls_->setTargetChosen(selectedProcess().has_value());
    updateHistoryButtons();
    showStatus();
}

void LiveJobsPanel::openWritten(const std::vector<od::TraceTicket>& tickets) {
    for (const od::TraceTicket& ticket : tickets) {
        if (!ticket.finished() || opened_.count(ticket.id)) continue;
        opened_.insert(ticket.id);
        if (!anyWritten(ticket)) {
            setNotice(tr("Trace #%1 failed: %2")
                          .arg(ticket.id)
                          .arg(qstr(processProgress(ticket.processes.front()))),
                      true);
            continue;
        }
        setNotice(tr("Trace #%1 written: %2").arg(ticket.id).arg(qstr(od::ticketOutput(ticket))),
                  false);
        emit openRequested(qstr(od::ticketOutput(ticket)));
    }
}

int LiveJobsPanel::trace(const od::TraceTarget& target) {
    if (!daemon_) {
        setNotice(start_error_.isEmpty() ? tr("Not answering the PyTorch jobs.") : start_error_,
                  true);
        return 0;
    }
    const QString folder = controls_->outputFolder();
    if (folder.isEmpty()) {
        setNotice(tr("Choose the folder the traces go into."), true);
        return 0;
    }
    std::string error;
    const int id = daemon_->trace(target, controls_->request(),
                                  QDir(folder).absolutePath().toStdString(), error);
    if (id == 0) {
        setNotice(tr("Cannot trace: %1.").arg(qstr(error)), true);
        return 0;
    }
    const od::TraceTicket asked = *daemon_->ticket(id);
    setNotice(
        tr("Trace #%1 asked of %2: %3 at its next poll (every 5 s).")
            .arg(id)
            .arg(asked.processes.size() == 1
                     ? tr("pid %1").arg(asked.processes.front().pid)
                     : tr("%1 processes of %2").arg(asked.processes.size()).arg(qstr(asked.job)))
            .arg(asked.processes.size() == 1 ? tr("it starts") : tr("each starts")),
        false);
    refresh();
    return id;
}

int LiveJobsPanel::traceSelected(bool whole_job) {
    const std::optional<od::LiveProcess> process = selectedProcess();
    if (!process) {
        setNotice(tr("Select a process to trace."), true);
        return 0;
    }
    return trace(whole_job ? od::TraceTarget{0, process->job} : od::TraceTarget{process->pid, ""});
}

std::optional<od::TraceTicket> LiveJobsPanel::ticket(int id) const {
    return daemon_ ? daemon_->ticket(id) : std::nullopt;
}

std::optional<od::LiveProcess> LiveJobsPanel::selectedProcess() const {
    const std::vector<int> rows = selectedSourceRows(process_table_);
    if (rows.empty() || rows.front() >= processes_->rowCount()) return std::nullopt;
    return processes_->rowAt(rows.front());
}

bool LiveJobsPanel::selectProcess(int pid) {
    const int row = processes_->rowOf(pid);
    if (row >= 0) selectSourceRows(process_table_, {row});
    return row >= 0;
}

void LiveJobsPanel::selectTraces(const std::vector<int>& tickets) {
    std::vector<int> rows;
    for (int id : tickets)
        if (const int row = history_->rowOf(id); row >= 0) rows.push_back(row);
    selectSourceRows(history_table_, rows);
}

std::vector<od::TraceTicket> LiveJobsPanel::selectedTraces() const {
    std::vector<od::TraceTicket> written;
    for (int row : selectedSourceRows(history_table_))
        if (row < history_->rowCount() && anyWritten(history_->rowAt(row)))
            written.push_back(history_->rowAt(row));
    std::sort(written.begin(), written.end(),
              [](const od::TraceTicket& a, const od::TraceTicket& b) { return a.id > b.id; });
    return written;
}

void LiveJobsPanel::updateHistoryButtons() {
    const size_t written = selectedTraces().size();
    open_->setEnabled(written > 0);
    diff_->setEnabled(written == 2);
}

void LiveJobsPanel::showStatus() {
    empty_->setText(daemon_ ? tr("No PyTorch process has polled yet (they poll every 5 s).\n\n%1.")
                                  .arg(QString::fromUtf8(kHowToStartTracedJob))
                            : tr("No process is listed while this panel does not answer the "
                                 "PyTorch jobs (see above)."));
    if (!start_error_.isEmpty()) {
        status_->setText(start_error_);
        status_->setStyleSheet(QStringLiteral("color: #c0392b"));
        return;
    }
    status_->setStyleSheet(QString());
    if (!daemon_) {
        status_->setText(started_once_ ? tr("Stopped answering the PyTorch jobs.")
                                       : tr("Answers the PyTorch jobs once shown."));
        return;
    }
    std::set<std::string> jobs;
    for (const od::LiveProcess& p : processes_->rows())
        jobs.insert(p.job);
    const long refused = daemon_->counters().other_users;
    const int n = processes_->rowCount();
    const QString listed =
        n == 0 ? tr("no process has polled yet")
               : tr("%1 of %2")
                     .arg(n == 1 ? tr("1 process") : tr("%1 processes").arg(n))
                     .arg(jobs.size() == 1 ? tr("1 job") : tr("%1 jobs").arg(jobs.size()));
    status_->setText(
        tr("Answering the PyTorch jobs on %1: %2. A trace starts at a process's next poll "
           "(every 5 s).%3")
            .arg(qstr(daemon_->where()), listed)
            .arg(refused > 0
                     ? tr(" %1 polls of other users' processes were not answered.").arg(refused)
                     : QString()));
}

QString LiveJobsPanel::statusText() const {
    return status_->text();
}

QString LiveJobsPanel::noticeText() const {
    return notice_->text();
}

void LiveJobsPanel::setNotice(const QString& text, bool error) {
    notice_->setText(text);
    // The red of the other views' errors.
    notice_->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
}

} // namespace ts::gui
