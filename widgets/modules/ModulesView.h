#pragma once
// The Modules tab (the TensorBoard plugin's Module view, docs/gpu-traces.md):
// the nn.Module tree of a trace recorded with with_modules=True (or
// with_stack=True), sortable and filterable by name, and the selected
// module's calls; double-clicking a call shows it on the timeline.
#include <memory>

#include <QWidget>

#include "analysis/ModuleView.h"
#include "common/SpecRowsModel.h"
#include "common/ViewFrame.h"

class QLabel;
class QLineEdit;
class QTableView;
class QTreeView;

namespace ts::gui {

class ModuleTreeModel;
class SortFilterProxy;

// The selected module's calls (report/ModuleTables.h's moduleCallTable).
class ModuleCallModel : public SpecRowsModel<ModuleCall> {
public:
    explicit ModuleCallModel(QObject* parent = nullptr);
};

class ModulesView : public QWidget {
    Q_OBJECT
public:
    explicit ModulesView(QWidget* parent = nullptr);

    void setView(std::shared_ptr<const ModuleView> view, const QString& description);
    void clear();
    // Empty, with `message` where the table goes: the trace is still being
    // analysed for this tab (shell/DocumentPages).
    void showPending(const QString& message);

    ModuleTreeModel* model() const { return model_; }
    SortFilterProxy* proxy() const { return proxy_; }
    QTreeView* tree() const { return tree_; }
    ModuleCallModel* callModel() const { return calls_; }
    QString messageText() const;
    void setNameFilter(const QString& text);
    // Selects the first module whose path ("MyModule/Linear") or name is `text`.
    bool selectModule(const QString& text);

signals:
    // The user asked to see a module's call on the timeline.
    void callActivated(const ts::ModuleCall& call);

private:
    void showCallsOf(const QModelIndex& proxy_index);

    std::shared_ptr<const ModuleView> view_;
    ModuleTreeModel* model_;
    SortFilterProxy* proxy_;
    QTreeView* tree_;
    ModuleCallModel* calls_;
    QTableView* call_table_;
    QLineEdit* filter_;
    QLabel* calls_title_;
    ViewFrame frame_;
};

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::ModuleCall)
