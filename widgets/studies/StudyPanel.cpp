#include "studies/StudyPanel.h"

#include <QSplitter>
#include <QTableView>

#include "common/ItemRoles.h"
#include "common/SortFilterProxy.h"
#include "studies/PointLiveChart.h"

namespace ts::gui {

StudyPanelBase::StudyPanelBase(QAbstractItemModel* model, QWidget* charts, const QString& live_tip,
                               QWidget* parent)
    : QWidget(parent), charts_(charts), proxy_(new SortFilterProxy(this)),
      table_(makeExperimentTable(proxy_, model)), live_(new PointLiveChart) {
    model->setParent(this);
    table_->setToolTip(tr("Double-click a row to open its run"));
    live_->setToolTip(live_tip);
    live_->hide();
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(charts);
    split->addWidget(live_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layOutTableOverCharts(this, table_, split);
    connect(table_, &QTableView::doubleClicked, this, &StudyPanelBase::openRow);
}

void StudyPanelBase::appendLive(const LiveUpdate& update) {
    if (shows_running_) live_->append(update);
}

void StudyPanelBase::setShowsRunning(bool running) {
    shows_running_ = running;
    live_->setVisible(running);
}

void StudyPanelBase::resetLive() {
    live_->reset();
}

void StudyPanelBase::resizeTable() {
    table_->resizeColumnsToContents();
}

void StudyPanelBase::openRow(const QModelIndex& index) {
    const QString dir = pointRunDir(recordedRunDir(index.data(RowRole).toInt()), dir_);
    if (!dir.isEmpty()) emit openRunRequested(dir);
}

} // namespace ts::gui
