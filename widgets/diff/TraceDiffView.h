#pragma once
// The Diff tab: two open documents (traces or runs) compared. A and B are
// picked from the documents open; the tab shows the step time change, the
// categories side by side, one step of each aligned on a shared time scale
// with the changed operators marked, and the operators and kernels that
// changed, ordered by their impact on the step (analysis/TraceDiff).
#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "analysis/TraceDiff.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace ts::gui {

class AlignedStepsWidget;
class DiffCategoryModel;
class DiffRowModel;
class SortFilterProxy;

struct DiffDocument {
    QString title;
    QString path;                       // tells documents of the same title apart
    std::shared_ptr<const Trace> trace; // null: the document has no trace
};

class TraceDiffView : public QWidget {
    Q_OBJECT
public:
    enum Table { Operators = 0, Kernels = 1 };

    explicit TraceDiffView(QWidget* parent = nullptr);

    // The documents to choose from; the choices stay on the same documents
    // while they are open (A: the first, B: the last, by default). The diff is
    // computed when the tab is shown (it analyses both traces again).
    void setDocuments(std::vector<DiffDocument> documents);
    // Compares documents `a` and `b` (indices into setDocuments' list).
    void compare(int a, int b);
    // The aligned steps (0-based; nullopt: each trace's median step).
    void setSteps(std::optional<size_t> step_a, std::optional<size_t> step_b);
    void setHideUnchanged(bool hide);
    void showTable(Table table);

    const std::optional<TraceDiff>& diff() const { return diff_; }
    DiffCategoryModel* categoryModel() const { return categories_; }
    DiffRowModel* operatorModel() const { return operators_; }
    DiffRowModel* kernelModel() const { return kernels_; }
    AlignedStepsWidget* alignedSteps() const { return aligned_; }
    QString summaryText() const;
    QString messageText() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    // Recomputes now when shown, else when next shown.
    void requestRecompute();
    void recompute();
    void fillRows();

    std::vector<DiffDocument> documents_;
    std::optional<TraceDiff> diff_;
    bool dirty_ = true;
    QComboBox* a_box_;
    QComboBox* b_box_;
    QSpinBox* step_a_;
    QSpinBox* step_b_;
    QCheckBox* hide_unchanged_;
    DiffCategoryModel* categories_;
    DiffRowModel* operators_;
    DiffRowModel* kernels_;
    QTableView* category_table_;
    QTableView* operator_table_;
    QTableView* kernel_table_;
    QTabWidget* tables_;
    AlignedStepsWidget* aligned_;
    QLabel* summary_;
    QLabel* message_;
    QWidget* body_;
};

} // namespace ts::gui
