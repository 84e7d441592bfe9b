#pragma once
// The Distributed tab (the TensorBoard plugin's Distributed view, beyond
// NCCL): for a folder of per-rank torch.profiler traces, per rank the step
// split into computation, overlapping, communication and other, the
// collectives' data transfer against synchronizing, the stragglers named
// with their numbers, and each rank's collectives. One span at a time; one
// step or the average step. Past a few ranks (1,024), what reads is the
// distribution of each metric across the ranks, who the others wait for,
// and the rank x step heat map: its cell opens that rank's trace there.
#include <memory>
#include <vector>

#include <QWidget>

#include "analysis/DistributedView.h"
#include "common/ViewFrame.h"
#include "trace/Trace.h"

class QComboBox;
class QLabel;
class QTableView;

namespace ts::gui {

class DocumentSelection;
struct Selection;

class CommOpModel;
class RankBarsChart;
class RankHeatMap;
class SpecTableModel;
class RankTableModel;
class SortFilterProxy;

class RanksView : public QWidget {
    Q_OBJECT
public:
    explicit RanksView(QWidget* parent = nullptr);

    // `spans` of one folder (null: the document is no rank folder);
    // `error` why its ranks form no view, if so.
    void setSpans(std::shared_ptr<const std::vector<DistributedView>> spans,
                  const QString& description, const QString& error = {});
    void clear();

    int spanCount() const;
    void selectSpan(int index); // 0-based
    void selectStep(int index); // 0 = the average step, then the steps in order
    void selectRank(int index); // of the collectives table, 0-based
    QStringList stepLabels() const;
    // The step and rank picked for the document are those shown, and a step
    // or rank chosen here is picked for every view; `trace` (the lowest
    // rank's) gives a step its span.
    void followSelection(DocumentSelection* selection);
    void setTrace(std::shared_ptr<const Trace> trace) { trace_ = std::move(trace); }

    RankTableModel* rankModel() const { return ranks_; }
    CommOpModel* commOpModel() const { return ops_; }
    RankBarsChart* overlapChart() const { return overlap_; }
    RankBarsChart* waitChart() const { return wait_; }
    RankHeatMap* heatMap() const { return heat_; }
    SpecTableModel* spreadModel() const { return spreads_; }
    bool barsShown() const;
    void selectMetric(int index); // of stepMetrics()
    // A heat map cell: its rank and step picked for every view; opened:
    // that rank's trace opened at that step (openRequested).
    void pickCell(int row, int column);
    void openCell(int row, int column);
    // A row of the rank table (the rank's index in the span): its trace, at
    // the step chosen, or whole for the average step.
    void openRankRow(int row);

signals:
    void openRequested(const QString& path);

public:
    QString summaryText() const;
    QString stragglerText() const;
    QString messageText() const;

private:
    const DistributedView* span() const;
    void applySelection(const Selection& selection);
    void pickStep();
    void pickRank();
    void showSpan();
    void showStep();
    void showRankOps();
    void showHeatMap();
    const DistributedStep* cellStep(int row, int column) const;

    std::shared_ptr<const std::vector<DistributedView>> spans_;
    std::shared_ptr<const Trace> trace_;
    DocumentSelection* selection_ = nullptr;
    QString error_; // spans left out, and why
    RankTableModel* ranks_;
    CommOpModel* ops_;
    SortFilterProxy* rank_proxy_;
    QTableView* rank_table_;
    QTableView* op_table_;
    RankBarsChart* overlap_;
    RankBarsChart* wait_;
    QWidget* bars_;
    RankHeatMap* heat_;
    QComboBox* metric_box_;
    SpecTableModel* spreads_;
    QTableView* spread_table_;
    QComboBox* span_box_;
    QComboBox* step_box_;
    QComboBox* rank_box_;
    QLabel* summary_;
    QLabel* stragglers_;
    ViewFrame frame_;
};

} // namespace ts::gui
