#include "shell/LiveJobsDock.h"

#include "diff/TraceDiffView.h"
#include "livejobs/LiveJobsPanel.h"
#include "shell/DocumentSelector.h"
#include "shell/MainWindow.h"

namespace ts::gui {

LiveJobsDock::LiveJobsDock(MainWindow& window, AppSettings& settings)
    : QDockWidget(tr("Live jobs"), &window), window_(window), panel_(new LiveJobsPanel(settings)) {
    setObjectName(QStringLiteral("liveJobsDock"));
    setWidget(panel_);
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                QDockWidget::DockWidgetFloatable);
    connect(panel_, &LiveJobsPanel::openRequested, &window_, &MainWindow::openPath);
    connect(panel_, &LiveJobsPanel::diffRequested, this, &LiveJobsDock::diff);
    connect(&window_, &MainWindow::documentShown, this,
            [this](const OpenedDocument& doc) { compareWhenOpen(&doc); });
}

void LiveJobsDock::diff(const QString& before, const QString& after) {
    pending_diff_ = {documentPath(before), documentPath(after)};
    bool opening = false;
    for (const QString& path : {before, after})
        if (window_.documents()->indexOf(documentPath(path)) < 0) {
            window_.openPath(path);
            opening = true;
        }
    if (!opening) compareWhenOpen(nullptr);
}

void LiveJobsDock::compareWhenOpen(const OpenedDocument* shown) {
    if (pending_diff_.isEmpty()) return;
    // One of the two could not be opened: the window said why.
    if (shown && !shown->ok() &&
        pending_diff_.contains(documentPath(QString::fromStdString(shown->path)))) {
        pending_diff_.clear();
        return;
    }
    const int a = window_.documents()->indexOf(pending_diff_[0]);
    const int b = window_.documents()->indexOf(pending_diff_[1]);
    if (a < 0 || b < 0) return;
    pending_diff_.clear();
    window_.page<TraceDiffView>("diff")->compare(a, b);
    window_.showView(QStringLiteral("diff"));
}

} // namespace ts::gui
