#include "studies/PanelParts.h"

#include <system_error>

#include <QObject>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "report/ChartRenderer.h"
#include "report/RunDirectory.h"

namespace ts::gui {

QTableView* makeExperimentTable(SortFilterProxy* proxy, QAbstractItemModel* model) {
    auto* table = new QTableView;
    table->setObjectName(QStringLiteral("experimentTable"));
    TableOptions options;
    options.movableColumns = false;
    options.stretchLastColumn = true;
    setUpTable(table, proxy, model, options);
    return table;
}

void layOutTableOverCharts(QWidget* panel, QTableView* table, QWidget* charts) {
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(table);
    split->addWidget(charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);
    split->setSizes({220, 550});
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

bool saveChartPng(QCustomPlot* chart, const QString& path, QString* error, int panels) {
    // The size and pixel ratio of the report's charts, so that both look alike.
    if (chart->savePng(path, panels * kChartWidth, kChartHeight, kChartPixelRatio)) return true;
    if (error) *error = QObject::tr("Cannot write %1.").arg(path);
    return false;
}

QString pointRunDir(const std::filesystem::path& recorded, const QString& shownDir) {
    std::filesystem::path dir = recorded;
    std::error_code ignored;
    if (!dir.empty() && !std::filesystem::exists(dir / run_files::kRunJson, ignored))
        dir = std::filesystem::path(shownDir.toStdString()) / dir.filename();
    if (!dir.empty() && std::filesystem::exists(dir / run_files::kRunJson, ignored))
        return QString::fromStdString(dir.string());
    return {};
}

} // namespace ts::gui
