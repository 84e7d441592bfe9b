#pragma once
// The Modules tab's tree: one row per nn.Module at its place in the module
// hierarchy, under the columns the CLI prints (report/ModuleTables.h): calls,
// operators, host/device total and self times in microseconds (as the plugin
// shows them). Every column gives its raw value under SortRole, so
// SortFilterProxy sorts the tree numerically.
#include <memory>
#include <vector>

#include <QAbstractItemModel>

#include "analysis/ModuleView.h"
#include "report/TableSpec.h"

namespace ts::gui {

class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    // The column whose key is `key` (report/ModuleTables.h's module_column).
    static int column(const char* key);

    explicit ModuleTreeModel(QObject* parent = nullptr);

    void setView(std::shared_ptr<const ModuleView> view);
    // The module an index of this model stands for; null for an invalid index.
    const ModuleRow* rowAt(const QModelIndex& index) const;
    // "MyModule/Linear": names from the root, for tooltips and exports.
    QString pathOf(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // The tree flattened: each node knows its parent and its children, so
    // parent() and index() are lookups. internalId() is the node's position.
    struct Node {
        const ModuleRow* row = nullptr;
        std::vector<table::Cell> cells; // moduleCells(*row), made once
        int parent = -1;                // node position, -1 for a top-level module
        int row_in_parent = 0;          // its row under its parent
        std::vector<int> children;
    };
    void addNodes(const std::vector<ModuleRow>& rows, int parent);
    const std::vector<int>& childrenOf(const QModelIndex& parent) const;

    std::shared_ptr<const ModuleView> view_;
    std::vector<table::Column> columns_;
    std::vector<Node> nodes_;
    std::vector<int> top_;
};

} // namespace ts::gui
