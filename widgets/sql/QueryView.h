#pragma once
// Time ▸ Query: SQL over the trace shown (docs/sql.md). An editor with the
// examples and the user's saved queries, Run (Ctrl+Enter) and Cancel, the
// rows as they stream in (a page at a time, the first 100,000 kept; Export
// CSV writes them all), errors with SQLite's message, the place in the
// query and the tables. Rows with an event id select it on the timeline,
// and "Show on timeline" dims every event but the result's.
#include <memory>

#include <QElapsedTimer>
#include <QWidget>

#include "jobs/BackgroundJob.h"
#include "jobs/UpdateQueue.h"
#include "sql/QueryResultModel.h"
#include "trace/Trace.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

#include "query/TraceDatabase.h"

namespace ts::gui {

class AppSettings;
class DocumentSelection;

class QueryView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxRows = 100000;

    explicit QueryView(AppSettings* settings = nullptr, QWidget* parent = nullptr);
    ~QueryView() override;

    void setTrace(std::shared_ptr<const Trace> trace, const QString& description);
    void clear(const QString& message);
    void showPending(const QString& message) { clear(message); }

    QString sql() const;
    void setSql(const QString& sql);
    // Runs the editor's query; false when no trace or one is running.
    bool run();
    void cancel();
    bool running() const { return job_.isRunning(); }
    QueryResultModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString statusText() const;
    // The result's event ids (its id, event_id, kernel_id, ... column).
    std::vector<int32_t> resultEvents() const;
    // Every row of the query (not only those kept) as CSV into `path`.
    bool exportCsv(const QString& path, QString* error);
    // The document's selection is bound to :start_ns, :end_ns, :step, :rank
    // and :event (NULL when not picked), and a query naming one runs again
    // when it changes; a row's event and "Show on timeline" go to the Timeline.
    void followSelection(DocumentSelection* selection);
    // The values bound to the parameters now (docs/sql.md).
    SqlParameters parameters() const;

signals:
    void eventActivated(int32_t event);
    void eventsShown(const std::vector<int32_t>& events);
    // A query ended (rows, an error or a cancel): tests, automation.
    void queryFinished();

private:
    struct Update {
        QStringList columns; // set once, with the first update
        bool has_columns = false;
        bool uses_parameters = false;
        std::vector<QueryRow> rows;
        QString error, hint;
        int error_offset = -1;
        bool cancelled = false, truncated = false, done = false;
    };
    void buildEditorBar(QWidget* bar);
    void drain();
    void finishQuery();
    void showError(const Update& u);
    void loadExample(int index);
    void loadSaved(int index);
    void saveQuery();
    void refreshSaved();
    int eventColumn() const;

    AppSettings* settings_;
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<TraceDatabase> db_; // made at the first run of a trace
    QPlainTextEdit* editor_;
    QComboBox* examples_;
    QComboBox* saved_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* show_;
    QPushButton* export_;
    QLabel* status_;
    QLabel* description_;
    QTableView* table_;
    QueryResultModel* model_;
    BackgroundJob job_;
    UpdateQueue<Update> updates_;
    QElapsedTimer clock_;
    bool truncated_ = false, failed_ = false;
    DocumentSelection* selection_ = nullptr;
    bool uses_parameters_ = false; // the last query named one
};

} // namespace ts::gui
