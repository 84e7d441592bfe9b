#pragma once
// The Roofline tab: the operators of the opened run or trace (or an imported
// Nsight Compute CSV) placed against the machine's roofs, as a log-log chart
// and a sortable table side by side. Peaks are typed in or measured (PeaksPanel).
// All the maths is core's: costsFromOpTable / readNcuCsv, buildRoofline, rooflineCsv.
#include <memory>
#include <vector>

#include <QWidget>

#include "analysis/OpStats.h"
#include "analysis/Roofline.h"
#include "config/ExperimentConfig.h"
#include "trace/Trace.h"

class QCheckBox;
class QLabel;
class QTableView;

namespace ts::gui {

class AppSettings;
class PeaksPanel;
class RooflineChart;
class RooflineModel;
class SortFilterProxy;

class RooflineView : public QWidget {
    Q_OBJECT
public:
    explicit RooflineView(AppSettings& settings, QWidget* parent = nullptr);

    // The operators of a trace (computed when the tab is next shown).
    void setTrace(std::shared_ptr<const Trace> trace, const QString& description);
    // An operator table directly (placed at once).
    void setOpTable(const OpTable& table, const QString& description);
    // Kernels of an Nsight Compute CSV export; false with the reason.
    bool importNcu(const QString& path, QString* error = nullptr);
    void clear();
    // Empty, with `message` where the table goes: the trace is still being
    // analysed for this tab (shell/DocumentPages).
    void showPending(const QString& message);
    // bf16/fp16 autocast run: convolutions and matmuls go against the reduced-precision roof.
    void setLowPrecisionRun(bool low);
    // The device whose peaks Measure takes ("cpu", "cuda:0").
    void setDevice(const QString& device);
    // Both from the config of the run whose operators are shown.
    void setRunConfig(const ExperimentConfig& config);

    const Roofline& roofline() const { return roofline_; }
    PeaksPanel* peaksPanel() const { return peaks_; }
    RooflineChart* chart() const { return chart_; }
    RooflineModel* model() const { return model_; }
    SortFilterProxy* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }

    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportCsv(const QString& path, QString* error = nullptr);

public slots:
    void rebuild();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void selectTableRow(int point);
    void onTableSelection();
    void importInteractive();
    void exportPngInteractive();
    void exportCsvInteractive();

    AppSettings& settings_;
    std::shared_ptr<const Trace> trace_;
    bool trace_pending_ = false;
    std::vector<KernelCost> costs_;
    std::vector<std::string> source_notes_;
    bool from_op_table_ = false;
    OpTable op_table_;
    Roofline roofline_;
    PeaksPanel* peaks_;
    RooflineChart* chart_;
    RooflineModel* model_;
    SortFilterProxy* proxy_;
    QTableView* table_;
    QLabel* source_;
    QLabel* notes_;
    QCheckBox* low_precision_;
};

} // namespace ts::gui
