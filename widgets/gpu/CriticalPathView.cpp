#include "gpu/CriticalPathView.h"

#include <stdexcept>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "common/DocumentSelection.h"
#include "report/CriticalPathTables.h"

namespace ts::gui {

CriticalPathView::CriticalPathView(AppSettings* settings, QWidget* parent)
    : SpecTablesView(settings, parent), window_(new QComboBox), what_if_(new QLineEdit),
      error_(new QLabel) {
    window_->setObjectName(QStringLiteral("criticalPathWindow"));
    window_->setToolTip(tr("The step (or the whole trace) whose critical path is shown"));
    what_if_->setObjectName(QStringLiteral("criticalPathWhatIf"));
    what_if_->setPlaceholderText(
        tr("What if: kernel:NAME=0.5; op:aten::addmm=0.5; category:launch_overhead=0 (Enter)"));
    what_if_->setClearButtonEnabled(true);
    what_if_->setToolTip(
        tr("Factors on the time of kernels or operators (by name, or containing it) or of a "
           "category, separated by ';'. The path is recomputed on the same graph; the result "
           "is the first row of the What If table."));
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->setVisible(false);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Window")));
    row->addWidget(window_);
    row->addWidget(what_if_, 1);
    auto* box = new QVBoxLayout;
    box->addLayout(row);
    box->addWidget(error_);
    bodyLayout()->insertLayout(0, box);
    connect(window_, &QComboBox::activated, this, [this](int index) { chooseWindow(index); });
    connect(what_if_, &QLineEdit::returnPressed, this, [this] { applyWhatIf(what_if_->text()); });
}

void CriticalPathView::setDiagnoses(std::shared_ptr<const Trace> trace,
                                    std::shared_ptr<const GpuDiagnoses> diagnoses,
                                    const QString& description) {
    trace_ = std::move(trace);
    diagnoses_ = std::move(diagnoses);
    description_ = description;
    launches_.reset();
    asked_.reset();
    report_ = std::shared_ptr<const CriticalPathReport>(diagnoses_, &diagnoses_->critical_path);
    // The windows: each step, then the whole trace.
    windows_ = stepWindows(*trace_);
    CpWindowChoice whole;
    whole.whole_trace = true;
    std::string error;
    windows_.push_back(*ts::chooseWindow(*trace_, whole, error));
    window_->clear();
    for (const CpWindow& w : windows_)
        window_->addItem(QString::fromStdString(w.label));
    window_->setCurrentIndex(
        std::max(0, window_->findText(QString::fromStdString(report_->graph.window.label))));
    showReport();
    if (selection_ && selection_->current().step) {
        const int picked = windowOfStep(*selection_->current().step);
        if (picked >= 0 && picked != window_->currentIndex()) chooseWindow(picked);
    }
}

int CriticalPathView::windowOfStep(int64_t step) const {
    const std::string label = "ProfilerStep#" + std::to_string(step);
    for (size_t i = 0; i < windows_.size(); ++i)
        if (windows_[i].label == label) return int(i);
    return -1;
}

void CriticalPathView::followSelection(DocumentSelection* selection) {
    selection_ = selection;
    connect(this, &CriticalPathView::pathChanged, selection, &DocumentSelection::showCriticalPath);
    connect(this, &SpecTablesView::eventActivated, selection,
            [this, selection](int32_t event) { selection->showEvent(event, this); });
    connect(selection, &DocumentSelection::changed, this,
            [this](const Selection& s, unsigned what, const QObject* origin) {
                if (origin == this || !(what & RangeChanged) || !s.step) return;
                const int picked = windowOfStep(*s.step);
                if (picked >= 0 && picked != window_->currentIndex()) chooseWindow(picked);
            });
    connect(window_, &QComboBox::activated, this, [this](int index) {
        const CpWindow& w = windows_[size_t(index)];
        const std::string prefix = "ProfilerStep#";
        if (w.label.rfind(prefix, 0) != 0 || w.end <= w.start) return;
        bool numbered = false;
        const qlonglong step =
            QString::fromStdString(w.label.substr(prefix.size())).toLongLong(&numbered);
        if (numbered) selection_->selectStep(step, w.start, w.end, this);
    });
}

QStringList CriticalPathView::windows() const {
    QStringList out;
    for (int i = 0; i < window_->count(); ++i)
        out << window_->itemText(i);
    return out;
}

bool CriticalPathView::chooseWindow(int index) {
    if (!trace_ || index < 0 || size_t(index) >= windows_.size()) return false;
    if (!launches_) launches_ = std::make_unique<LaunchIndex>(LaunchIndex::build(*trace_));
    report_ = std::make_shared<const CriticalPathReport>(
        analyseCriticalPath(*trace_, *launches_, windows_[size_t(index)]));
    window_->setCurrentIndex(index);
    asked_.reset();
    applyWhatIf(what_if_->text());
    emit pathChanged(report_, trace_);
    return true;
}

QString CriticalPathView::applyWhatIf(const QString& text) {
    what_if_->setText(text);
    std::vector<WhatIfFactor> factors;
    QString problem;
    for (const QString& part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        WhatIfFactor f;
        std::string error;
        if (!parseWhatIf(part.trimmed().toStdString(), f, error)) {
            problem = QString::fromStdString(error);
            break;
        }
        factors.push_back(f);
    }
    asked_.reset();
    if (problem.isEmpty() && !factors.empty() && report_) {
        try {
            asked_ = std::make_unique<WhatIfResult>(whatIf(*trace_, *report_, factors));
        } catch (const std::invalid_argument& e) {
            problem = QString::fromStdString(e.what());
        }
    }
    error_->setText(problem);
    error_->setVisible(!problem.isEmpty());
    showReport();
    return problem;
}

void CriticalPathView::showReport() {
    if (!report_ || !trace_) return;
    const CriticalPathReport& r = *report_;
    SpecTables shown;
    for (const std::string& note : r.graph.notes)
        shown.notes << QString::fromStdString(note);
    if (r.graph.window.label.empty()) {
        shown.notes << tr("A large trace without steps: choose its window above (the whole "
                          "trace's path is made only when asked).");
    } else if (r.graph.nodes.empty()) {
        shown.notes << tr("No operator, runtime call or kernel in %1: no path to show.")
                           .arg(QString::fromStdString(r.graph.window.label));
    } else {
        if (const std::string note = criticalPathLengthNote(r); !note.empty())
            shown.notes << QString::fromStdString(note);
        shown.tables = {criticalPathBoundTable(r), criticalPathItemTable(r),
                        whatIfTable(r, asked_.get()), criticalPathEventTable(*trace_, r)};
    }
    setTables(shown, description_);
}

} // namespace ts::gui
