#include "sql/QueryView.h"

#include <fstream>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTextBlock>
#include <QVBoxLayout>

#include "common/AppSettings.h"
#include "common/DocumentSelection.h"
#include "common/ExportFile.h"
#include "query/ExampleQueries.h"
#include "query/TraceDatabase.h"
#include "util/Csv.h"

namespace ts::gui {
namespace {

constexpr int kBatchRows = 2000;
const char* const kEventColumns[] = {"id", "event_id", "kernel_id", "runtime_id", "op_id"};

QVariant variantOf(const SqlCell& c) {
    switch (c.type) {
    case SqlCell::Int:
        return QVariant(qlonglong(c.i));
    case SqlCell::Real:
        return QVariant(c.d);
    case SqlCell::Text:
        return QVariant(QString::fromUtf8(c.s.data(), qsizetype(c.s.size())));
    default:
        return {};
    }
}

std::string csvText(const SqlCell& c) {
    switch (c.type) {
    case SqlCell::Int:
        return std::to_string(c.i);
    case SqlCell::Real:
        return QString::number(c.d, 'g', 12).toStdString();
    case SqlCell::Text:
        return std::string(c.s);
    default:
        return "";
    }
}

} // namespace

QueryView::QueryView(AppSettings* settings, QWidget* parent)
    : QWidget(parent), settings_(settings), editor_(new QPlainTextEdit), examples_(new QComboBox),
      saved_(new QComboBox), run_(new QPushButton(tr("Run"))),
      cancel_(new QPushButton(tr("Cancel"))), show_(new QPushButton(tr("Show on timeline"))),
      export_(new QPushButton(tr("Export CSV…"))), status_(new QLabel), description_(new QLabel),
      table_(new QTableView), model_(new QueryResultModel(this)) {
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor_->setObjectName(QStringLiteral("queryEditor"));
    editor_->setPlaceholderText(tr("SELECT name, count(*), sum(dur) / 1e6 AS ms FROM kernels "
                                   "GROUP BY name ORDER BY ms DESC   (Ctrl+Enter runs; "
                                   "docs/sql.md lists the tables)"));
    setSql(QString::fromUtf8(exampleQueries().front().sql));
    table_->setModel(model_);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setMaximumSectionSize(600);
    table_->setTextElideMode(Qt::ElideRight);
    table_->setWordWrap(false);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QWidget;
    buildEditorBar(bar);
    auto* top = new QWidget;
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->addWidget(bar);
    top_layout->addWidget(editor_, 1);
    top_layout->addWidget(status_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(table_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({editor_->fontMetrics().height() * 12, 600});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(description_);
    layout->addWidget(split, 1);

    job_.setDrain([this] { drain(); });
    job_.setStopHook([this] {
        if (db_) db_->cancel();
    });
    connect(&job_, &BackgroundJob::finished, this, &QueryView::finishQuery);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& at) {
        const int column = eventColumn();
        if (column >= 0 && model_->valueAt(at.row(), column).isValid())
            emit eventActivated(int32_t(model_->valueAt(at.row(), column).toLongLong()));
    });
    clear(tr("Open a trace to query it."));
}

QueryView::~QueryView() {
    job_.stopAndJoin();
}

void QueryView::buildEditorBar(QWidget* bar) {
    examples_->addItem(tr("Examples…"));
    for (const ExampleQuery& q : exampleQueries())
        examples_->addItem(QString::fromUtf8(q.question));
    examples_->setToolTip(tr("Questions and their queries (docs/sql.md)"));
    // The questions are long: the box must not widen the window.
    for (QComboBox* box : {examples_, saved_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(16);
    }
    saved_->setToolTip(tr("Your saved queries"));
    auto* save = new QPushButton(tr("Save…"));
    save->setToolTip(tr("Save the query under a name"));
    run_->setToolTip(tr("Run the query (Ctrl+Enter)"));
    show_->setToolTip(tr("Dim every event on the timeline but the result's (its id, event_id or "
                         "kernel_id column)"));
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(examples_, 2);
    layout->addWidget(saved_, 1);
    layout->addWidget(save);
    layout->addStretch(1);
    for (QPushButton* b : {run_, cancel_, show_, export_})
        layout->addWidget(b);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &QueryView::run);
    connect(run_, &QPushButton::clicked, this, &QueryView::run);
    connect(cancel_, &QPushButton::clicked, this, &QueryView::cancel);
    connect(show_, &QPushButton::clicked, this, [this] { emit eventsShown(resultEvents()); });
    connect(save, &QPushButton::clicked, this, &QueryView::saveQuery);
    connect(examples_, &QComboBox::activated, this, &QueryView::loadExample);
    connect(saved_, &QComboBox::activated, this, &QueryView::loadSaved);
    connect(export_, &QPushButton::clicked, this, [this] {
        if (!settings_) return;
        exportFileInteractive(
            this, *settings_, tr("Export query result"), QStringLiteral("query.csv"),
            tr("CSV files (*.csv)"),
            [this](const QString& path, QString* e) { return exportCsv(path, e); });
    });
    refreshSaved();
}

void QueryView::setTrace(std::shared_ptr<const Trace> trace, const QString& description) {
    job_.stopAndJoin();
    db_.reset(); // reads the old trace: gone before it
    trace_ = std::move(trace);
    model_->reset({});
    description_->setText(description);
    status_->setText(trace_ ? tr("Write a query and press Run (Ctrl+Enter).") : QString());
    run_->setEnabled(bool(trace_));
    cancel_->setEnabled(false);
    show_->setEnabled(false);
    export_->setEnabled(false);
}

void QueryView::clear(const QString& message) {
    setTrace(nullptr, message);
}

QString QueryView::sql() const {
    return editor_->toPlainText();
}

void QueryView::setSql(const QString& sql) {
    editor_->setPlainText(sql);
}

bool QueryView::run() {
    if (!trace_ || job_.isRunning()) return false;
    if (!db_) db_ = std::make_shared<TraceDatabase>(*trace_);
    model_->reset({});
    truncated_ = failed_ = false;
    status_->setStyleSheet({});
    status_->setText(tr("Running…"));
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    show_->setEnabled(false);
    export_->setEnabled(false);
    clock_.start();
    const std::string text = sql().toStdString();
    return job_.start([this, db = db_, text, values = parameters()] {
        Update first;
        try {
            std::unique_ptr<SqlStatement> stmt = db->prepare(text);
            first.uses_parameters = !stmt->parameters().empty();
            bindParameters(*stmt, values);
            for (int c = 0; c < stmt->columns(); ++c)
                first.columns << QString::fromStdString(stmt->columnName(c));
            first.has_columns = true;
            updates_.push(std::move(first));
            Update batch;
            int kept = 0;
            while (stmt->next()) {
                if (kept == kMaxRows) {
                    batch.truncated = true;
                    break;
                }
                QueryRow row;
                for (int c = 0; c < stmt->columns(); ++c)
                    row.push_back(variantOf(stmt->value(c)));
                batch.rows.push_back(std::move(row));
                ++kept;
                if (batch.rows.size() >= size_t(kBatchRows))
                    updates_.push(std::exchange(batch, {}));
            }
            updates_.push(std::move(batch));
        } catch (const SqlError& e) {
            Update failure;
            failure.error = QString::fromStdString(e.what());
            failure.hint = QString::fromStdString(e.hint());
            failure.error_offset = e.offset();
            failure.cancelled = e.cancelled();
            updates_.push(std::move(failure));
        } catch (const std::exception& e) { // out of memory, say
            Update failure;
            failure.error = QString::fromStdString(e.what());
            updates_.push(std::move(failure));
        }
    });
}

SqlParameters QueryView::parameters() const {
    const Selection s = selection_ ? selection_->current() : Selection{};
    const auto event = s.event >= 0 ? std::optional<int64_t>(s.event) : std::nullopt;
    return {{":start_ns", s.range ? std::optional<int64_t>(s.range->start_ns) : std::nullopt},
            {":end_ns", s.range ? std::optional<int64_t>(s.range->end_ns) : std::nullopt},
            {":step", s.step},
            {":rank", s.rank ? std::optional<int64_t>(*s.rank) : std::nullopt},
            {":event", event}};
}

void QueryView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    connect(this, &QueryView::eventActivated, selection,
            [this, selection](int32_t event) { selection->showEvent(event, this); });
    connect(this, &QueryView::eventsShown, selection,
            [this, selection](const std::vector<int32_t>& events) {
                selection->focusEvents(events, this);
                selection->requestView(QStringLiteral("timeline"));
            });
    connect(selection, &DocumentSelection::changed, this,
            [this](const Selection&, unsigned what, const QObject* origin) {
                if (origin != this && (what & (RangeChanged | RankChanged | EventChanged)) &&
                    uses_parameters_ && !running())
                    run();
            });
}

void QueryView::cancel() {
    job_.requestStop();
}

void QueryView::drain() {
    for (Update& u : updates_.take()) {
        if (u.has_columns) {
            model_->reset(u.columns);
            uses_parameters_ = u.uses_parameters;
        }
        if (!u.error.isEmpty()) showError(u);
        truncated_ = truncated_ || u.truncated;
        if (u.rows.empty()) continue;
        const bool first = model_->received() == 0;
        model_->append(std::move(u.rows));
        if (first) table_->resizeColumnsToContents(); // by the first page's widths
    }
    if (!failed_) status_->setText(tr("%Ln row(s) so far…", "", model_->received()));
}

void QueryView::showError(const Update& u) {
    failed_ = true;
    status_->setStyleSheet(QStringLiteral("color: #c0392b"));
    QString text = u.cancelled ? tr("Cancelled.") : u.error;
    if (!u.hint.isEmpty()) text += QStringLiteral("\n") + u.hint.trimmed();
    status_->setText(text);
    if (u.error_offset < 0) return;
    // SQLite's offset counts UTF-8 bytes: the editor's place of that byte.
    const QByteArray bytes = sql().toUtf8();
    const int at = int(QString::fromUtf8(bytes.left(u.error_offset)).size());
    QTextCursor cursor = editor_->textCursor();
    cursor.setPosition(at);
    cursor.movePosition(QTextCursor::EndOfWord, QTextCursor::KeepAnchor);
    editor_->setTextCursor(cursor);
}

void QueryView::finishQuery() {
    run_->setEnabled(bool(trace_));
    cancel_->setEnabled(false);
    if (!failed_) {
        const double seconds = double(clock_.elapsed()) / 1000;
        QString text = tr("%Ln row(s) in %1 s.", "", model_->received()).arg(seconds, 0, 'f', 3);
        if (truncated_)
            text = tr("The first %Ln rows (in %1 s); Export CSV writes every row.", "", kMaxRows)
                       .arg(seconds, 0, 'f', 3);
        if (uses_parameters_ && selection_ && !selection_->current().empty())
            text += tr(" Bound to the selection: %1.").arg(selection_->current().label());
        status_->setText(text);
        show_->setEnabled(eventColumn() >= 0 && model_->received() > 0);
        export_->setEnabled(bool(settings_));
    }
    emit queryFinished();
}

QString QueryView::statusText() const {
    return status_->text();
}

int QueryView::eventColumn() const {
    for (const char* name : kEventColumns) {
        const int column = model_->columnNamed(QString::fromLatin1(name));
        if (column >= 0) return column;
    }
    return -1;
}

std::vector<int32_t> QueryView::resultEvents() const {
    std::vector<int32_t> events;
    const int column = eventColumn();
    if (column < 0) return events;
    for (int row = 0; row < model_->received(); ++row) {
        const QVariant v = model_->valueAt(row, column);
        if (v.isValid()) events.push_back(int32_t(v.toLongLong()));
    }
    return events;
}

bool QueryView::exportCsv(const QString& path, QString* error) {
    if (!db_ || job_.isRunning()) return false;
    try {
        std::ofstream out(path.toStdString());
        std::unique_ptr<SqlStatement> stmt = db_->prepare(sql().toStdString());
        bindParameters(*stmt, parameters());
        std::vector<std::string> cells;
        for (int c = 0; c < stmt->columns(); ++c)
            cells.push_back(stmt->columnName(c));
        out << csvLine(cells) << '\n';
        while (stmt->next()) {
            cells.clear();
            for (int c = 0; c < stmt->columns(); ++c)
                cells.push_back(csvText(stmt->value(c)));
            out << csvLine(cells) << '\n';
        }
        out.flush();
        if (!out && error) *error = tr("cannot write %1").arg(path);
        return bool(out);
    } catch (const SqlError& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

void QueryView::loadExample(int index) {
    if (index >= 1 && size_t(index) <= exampleQueries().size())
        setSql(QString::fromUtf8(exampleQueries()[size_t(index - 1)].sql));
    examples_->setCurrentIndex(0);
}

void QueryView::loadSaved(int index) {
    if (!settings_ || index < 1) return;
    setSql(settings_->savedQueries().value(saved_->itemText(index)));
    saved_->setCurrentIndex(0);
}

void QueryView::saveQuery() {
    if (!settings_) return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save query"), tr("Name:"),
                                               QLineEdit::Normal, QString(), &ok)
                             .trimmed();
    if (!ok || name.isEmpty()) return;
    settings_->saveQuery(name, sql());
    refreshSaved();
}

void QueryView::refreshSaved() {
    saved_->clear();
    saved_->addItem(tr("Saved…"));
    if (!settings_) return;
    const QMap<QString, QString> queries = settings_->savedQueries();
    for (auto it = queries.begin(); it != queries.end(); ++it)
        saved_->addItem(it.key());
}

} // namespace ts::gui
