#include "diff/TraceDiffView.h"

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "common/Format.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "diff/AlignedStepsWidget.h"
#include "diff/DiffModels.h"

namespace ts::gui {
namespace {

// -1 shows as "median": each trace's median-duration step.
QSpinBox* stepBox() {
    auto* box = new QSpinBox;
    box->setRange(-1, -1);
    box->setSpecialValueText(QObject::tr("median"));
    box->setToolTip(QObject::tr("The step aligned below (0-based), or the median-duration step"));
    return box;
}

std::optional<size_t> stepOf(const QSpinBox* box) {
    return box->value() < 0 ? std::nullopt : std::optional<size_t>(size_t(box->value()));
}

std::vector<DiffRow> changedOnly(const std::vector<DiffRow>& rows, bool hide_unchanged) {
    std::vector<DiffRow> out;
    for (const DiffRow& r : rows)
        if (!hide_unchanged || r.status != DiffStatus::Unchanged) out.push_back(r);
    return out;
}

} // namespace

TraceDiffView::TraceDiffView(QWidget* parent)
    : QWidget(parent), a_box_(new QComboBox), b_box_(new QComboBox), step_a_(stepBox()),
      step_b_(stepBox()), hide_unchanged_(new QCheckBox(tr("Hide unchanged"))),
      categories_(new DiffCategoryModel(this)), operators_(new DiffRowModel(false, this)),
      kernels_(new DiffRowModel(true, this)), category_table_(new QTableView),
      operator_table_(new QTableView), kernel_table_(new QTableView), tables_(new QTabWidget),
      aligned_(new AlignedStepsWidget), summary_(new QLabel), message_(new QLabel),
      body_(new QWidget) {
    setObjectName(QStringLiteral("diffView"));
    setUpTable(category_table_, new SortFilterProxy(this), categories_);
    setUpTable(operator_table_, new SortFilterProxy(this), operators_); // by impact, as given
    setUpTable(kernel_table_, new SortFilterProxy(this), kernels_);
    tables_->addTab(operator_table_, tr("Operators"));
    tables_->addTab(kernel_table_, tr("Kernels"));
    hide_unchanged_->setChecked(true);
    summary_->setWordWrap(true);
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    for (QComboBox* box : {a_box_, b_box_})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("A")));
    bar->addWidget(a_box_, 1);
    bar->addWidget(new QLabel(tr("step")));
    bar->addWidget(step_a_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("B")));
    bar->addWidget(b_box_, 1);
    bar->addWidget(new QLabel(tr("step")));
    bar->addWidget(step_b_);
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(category_table_);
    auto* rows = new QWidget;
    auto* rows_layout = new QVBoxLayout(rows);
    rows_layout->setContentsMargins(0, 0, 0, 0);
    rows_layout->addWidget(hide_unchanged_);
    rows_layout->addWidget(tables_, 1);
    lower->addWidget(rows);
    lower->setSizes({430, 800});
    auto* body = new QVBoxLayout(body_);
    body->setContentsMargins(0, 0, 0, 0);
    body->addWidget(summary_);
    body->addWidget(aligned_);
    body->addWidget(lower, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(message_, 1);
    layout->addWidget(body_, 1);

    for (QComboBox* box : {a_box_, b_box_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            // A new pair starts from the median steps.
            const QSignalBlocker block_a(step_a_), block_b(step_b_);
            step_a_->setValue(-1);
            step_b_->setValue(-1);
            requestRecompute();
        });
    for (QSpinBox* box : {step_a_, step_b_})
        connect(box, &QSpinBox::valueChanged, this, [this] { requestRecompute(); });
    connect(hide_unchanged_, &QCheckBox::toggled, this, [this] { fillRows(); });
    setDocuments({});
}

void TraceDiffView::setDocuments(std::vector<DiffDocument> documents) {
    const QString a = a_box_->currentData().toString(), b = b_box_->currentData().toString();
    documents_ = std::move(documents);
    {
        const QSignalBlocker block_a(a_box_), block_b(b_box_);
        a_box_->clear();
        b_box_->clear();
        for (const DiffDocument& d : documents_) {
            // Two documents of one name (trace.json of two runs) show their folders.
            const bool shared =
                std::count_if(documents_.begin(), documents_.end(),
                              [&](const auto& o) { return o.title == d.title; }) > 1;
            const QString text =
                shared ? QStringLiteral("%1 — %2").arg(d.title, QFileInfo(d.path).path()) : d.title;
            for (QComboBox* box : {a_box_, b_box_}) {
                box->addItem(text, d.path);
                box->setItemData(box->count() - 1, d.path, Qt::ToolTipRole);
            }
        }
        // Kept where still open; by default A is the first document, B the newest.
        const int last = int(documents_.size()) - 1;
        const int kept_a = a_box_->findData(a), kept_b = b_box_->findData(b);
        a_box_->setCurrentIndex(kept_a >= 0 ? kept_a : 0);
        b_box_->setCurrentIndex(kept_b >= 0 && kept_b != a_box_->currentIndex() ? kept_b : last);
    }
    requestRecompute();
}

void TraceDiffView::compare(int a, int b) {
    const QSignalBlocker block_a(a_box_), block_b(b_box_);
    a_box_->setCurrentIndex(a);
    b_box_->setCurrentIndex(b);
    recompute();
}

void TraceDiffView::setSteps(std::optional<size_t> step_a, std::optional<size_t> step_b) {
    const QSignalBlocker block_a(step_a_), block_b(step_b_);
    step_a_->setValue(step_a ? int(*step_a) : -1);
    step_b_->setValue(step_b ? int(*step_b) : -1);
    recompute();
}

void TraceDiffView::setHideUnchanged(bool hide) {
    hide_unchanged_->setChecked(hide);
}

void TraceDiffView::showTable(Table table) {
    tables_->setCurrentIndex(int(table));
}

void TraceDiffView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (dirty_) recompute();
}

void TraceDiffView::requestRecompute() {
    dirty_ = true;
    if (isVisible()) recompute();
}

void TraceDiffView::recompute() {
    dirty_ = false;
    diff_.reset();
    const int a = a_box_->currentIndex(), b = b_box_->currentIndex();
    const int count = int(documents_.size());
    QString why;
    if (count < 2 || a < 0 || b < 0 || a >= count || b >= count)
        why = tr("Open two traces or runs (File ▸ Open…), then compare them here: operators and "
                 "kernels added, removed, slower or faster, the step's categories side by side, "
                 "and one step of each aligned.");
    else if (a == b)
        why = tr("Choose two different documents for A and B.");
    else if (!documents_[size_t(a)].trace || !documents_[size_t(b)].trace)
        why = tr("%1 has no trace to compare.")
                  .arg(documents_[size_t(documents_[size_t(a)].trace ? b : a)].title);
    if (why.isEmpty()) {
        TraceDiffOptions options;
        options.label_a = documents_[size_t(a)].title.toStdString();
        options.label_b = documents_[size_t(b)].title.toStdString();
        options.step_a = stepOf(step_a_);
        options.step_b = stepOf(step_b_);
        QApplication::setOverrideCursor(Qt::WaitCursor);
        try {
            diff_ = computeTraceDiff(*documents_[size_t(a)].trace, *documents_[size_t(b)].trace,
                                     options);
        } catch (const std::exception& error) {
            why = QString::fromUtf8(error.what());
        }
        QApplication::restoreOverrideCursor();
    }
    message_->setText(why);
    message_->setVisible(!diff_);
    body_->setVisible(diff_.has_value());
    for (auto [box, side] : {std::pair{step_a_, diff_ ? &diff_->a : nullptr},
                             std::pair{step_b_, diff_ ? &diff_->b : nullptr}}) {
        const QSignalBlocker block(box);
        box->setMaximum(side && side->has_steps ? int(side->steps) - 1 : -1);
    }
    if (!diff_) {
        categories_->clear();
        operators_->clear();
        kernels_->clear();
        aligned_->setAlignment({}, QString(), QString());
        return;
    }
    const TraceDiff& d = *diff_;
    const QString per = d.per_step ? tr("per step") : tr("in total (a trace has no steps)");
    summary_->setText(
        tr("Step time %1 → %2 (%3%4). Figures are %5; changes under %6 count as unchanged. "
           "%7 operator(s) changed.")
            .arg(format::durationNs(int64_t(d.a.step_ns)), format::durationNs(int64_t(d.b.step_ns)),
                 d.stepChange() > 0 ? QStringLiteral("+") : QString(),
                 format::percent(d.stepChange()), per, format::durationNs(int64_t(d.threshold_ns)))
            .arg(d.changed_operators.size()));
    categories_->setRows(d.categories);
    std::map<std::string, double> impacts;
    for (const DiffRow& row : d.operators)
        impacts[row.name] = row.impact_ns;
    aligned_->setAlignment(d.alignment, tr("A"), tr("B"), std::move(impacts));
    fillRows();
    category_table_->resizeColumnsToContents();
}

void TraceDiffView::fillRows() {
    if (!diff_) return;
    const bool hide = hide_unchanged_->isChecked();
    operators_->setRows(changedOnly(diff_->operators, hide), diff_->by_device);
    kernels_->setRows(changedOnly(diff_->kernels, hide), true);
    const int name = operators_->column(diff_column::kName);
    for (QTableView* table : {operator_table_, kernel_table_}) {
        table->resizeColumnsToContents();
        table->setColumnWidth(name, qMin(table->columnWidth(name), 380));
    }
}

QString TraceDiffView::summaryText() const {
    return summary_->text();
}

QString TraceDiffView::messageText() const {
    return message_->isVisibleTo(this) ? message_->text() : QString();
}

} // namespace ts::gui
