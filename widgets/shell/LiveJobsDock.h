#pragma once
// The Live jobs panel (livejobs/LiveJobsPanel.h) as a dock of the window,
// hidden until View ▸ Live Jobs: the traces it takes open as any document
// does (a rank folder as a rank folder), and its Diff opens the two traces
// and compares them in the Diff view, the older as A.
#include <QDockWidget>
#include <QStringList>

#include "shell/OpenedDocument.h"

namespace ts::gui {

class AppSettings;
class LiveJobsPanel;
class MainWindow;

class LiveJobsDock : public QDockWidget {
    Q_OBJECT
public:
    LiveJobsDock(MainWindow& window, AppSettings& settings);
    LiveJobsPanel* panel() const { return panel_; }

private:
    void diff(const QString& before, const QString& after);
    // Compares the two documents of the Diff asked, once both are open.
    void compareWhenOpen(const OpenedDocument* shown);

    MainWindow& window_;
    LiveJobsPanel* panel_;
    QStringList pending_diff_; // the documents' paths (documentPath), before and after
};

} // namespace ts::gui
