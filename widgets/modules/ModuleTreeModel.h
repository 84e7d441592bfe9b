#pragma once
// The Modules tab's tree: one row per nn.Module at its place in the module
// hierarchy, with calls, operators and host/device total and self times in
// microseconds (as the plugin shows them). Every column gives its raw value
// under SortRole, so SortFilterProxy sorts the tree numerically.
#include <memory>
#include <vector>

#include <QAbstractItemModel>

#include "analysis/ModuleView.h"

namespace ts::gui {

class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Calls,
        Operators,
        HostTotalUs,
        HostSelfUs,
        DeviceTotalUs,
        DeviceSelfUs,
        MeanUs,
        ModuleId,
        ColumnCount
    };

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
        int parent = -1;       // node position, -1 for a top-level module
        int row_in_parent = 0; // its row under its parent
        std::vector<int> children;
    };
    void addNodes(const std::vector<ModuleRow>& rows, int parent);
    const std::vector<int>& childrenOf(const QModelIndex& parent) const;

    std::shared_ptr<const ModuleView> view_;
    std::vector<Node> nodes_;
    std::vector<int> top_;
};

} // namespace ts::gui
