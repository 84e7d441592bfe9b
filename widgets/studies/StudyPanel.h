#pragma once
// What the Sweep and Ladder panels share: a table of the study's points over
// its charts and the running point's live chart; the running study kept
// apart from the one shown, so that opening another directory while one runs
// loses nothing (its next point shows it again); a double-clicked row opens
// that point's run.
#include <filesystem>

#include <QString>
#include <QWidget>

#include "studies/PanelParts.h"
#include "training/LiveUpdate.h"

class QAbstractItemModel;
class QModelIndex;
class QTableView;

namespace ts::gui {

class PointLiveChart;
class SortFilterProxy;

class StudyPanelBase : public QWidget {
    Q_OBJECT
public:
    QTableView* table() const { return table_; }
    PointLiveChart* liveChart() const { return live_; }
    QString directory() const { return dir_; }
    // The running point's steps since the previous tick.
    void appendLive(const LiveUpdate& update);

signals:
    // A row was double-clicked: its point's run directory.
    void openRunRequested(const QString& runDir);

protected:
    // `model` and `charts` become the panel's; `live_tip` says what the live chart follows.
    StudyPanelBase(QAbstractItemModel* model, QWidget* charts, const QString& live_tip,
                   QWidget* parent);
    // The recorded run directory of the model's `row`.
    virtual std::filesystem::path recordedRunDir(int row) const = 0;
    // Shows the running study (live chart on) or an opened one.
    void setShowsRunning(bool running);
    void resetLive();
    void resizeTable();

    QWidget* charts_; // the subclass's charts
    QString dir_;
    QString running_dir_;
    bool shows_running_ = false;
    SortFilterProxy* proxy_;
    QTableView* table_;
    PointLiveChart* live_;

private:
    void openRow(const QModelIndex& index);
};

// `Result` holds `rows` and `spec`; `Model` is a SpecRowsModel of its rows.
template <typename Result, typename Model> class StudyPanel : public StudyPanelBase {
public:
    Model* model() const { return model_; }
    const Result& result() const { return result_; }

    // A whole study (opened from disk): no live chart.
    void showResult(const Result& result, const QString& dir) {
        result_ = result;
        dir_ = dir;
        setShowsRunning(false);
        refresh();
    }

protected:
    StudyPanel(Model* model, QWidget* charts, const QString& live_tip, QWidget* parent)
        : StudyPanelBase(model, charts, live_tip, parent), model_(model) {}
    // The charts show `result`.
    virtual void showCharts(const Result& result) = 0;

    // A study about to run into `dir`: no points yet, the live chart shown.
    void beginRunning(const decltype(Result::spec)& spec, const QString& dir) {
        running_ = Result();
        running_.spec = spec;
        running_dir_ = dir;
        showRunning();
        resetLive();
    }
    void showRunning() {
        result_ = running_;
        dir_ = running_dir_;
        setShowsRunning(true);
        refresh();
    }
    void refresh() {
        model_->setRows(result_.rows);
        showCharts(result_);
        resizeTable();
    }
    std::filesystem::path recordedRunDir(int row) const override {
        return model_->rowAt(row).result.run_dir;
    }

    Result result_; // what is shown
    Result running_;
    Model* model_;
};

} // namespace ts::gui
