#pragma once
// What is running (model, data, machine), how it ended, and the engine's messages.
#include <vector>

#include <QWidget>

#include "records/Records.h"
#include "training/LiveUpdate.h"

class QLabel;
class QPlainTextEdit;

namespace ts::gui {

class RunInfoPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunInfoPanel(QWidget* parent = nullptr);

    void clear();
    void setTitle(const QString& title);
    void setInfo(const RunInfo& info);
    void setSummary(const RunSummary& summary);
    void addMessages(const std::vector<LogLine>& lines);

private:
    QLabel* title_;
    QLabel* info_;
    QLabel* summary_;
    QPlainTextEdit* log_;
};

} // namespace ts::gui
