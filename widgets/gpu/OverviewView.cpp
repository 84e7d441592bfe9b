#include "gpu/OverviewView.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "common/DocumentSelection.h"
#include "common/Format.h"
#include "common/SortFilterProxy.h"
#include "common/TableSetup.h"
#include "gpu/AverageShareChart.h"
#include "gpu/GpuTableModels.h"
#include "gpu/StepBreakdownChart.h"
#include "trace/OptimizerSteps.h"

namespace ts::gui {
namespace {

QString percentOrDash(const std::optional<double>& fraction) {
    return fraction ? QString::number(100.0 * *fraction, 'f', 2) + QStringLiteral(" %")
                    : QStringLiteral("–");
}

QLabel* richLabel() {
    auto* label = new QLabel;
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QGroupBox* boxed(const QString& title, QWidget* inner) {
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(inner);
    return box;
}

} // namespace

QString gpuSummaryHtml(const std::vector<GpuDeviceSummary>& gpus) {
    if (gpus.empty()) return QObject::tr("No GPU work in this source.");
    QString html;
    for (const GpuDeviceSummary& g : gpus) {
        html += QStringLiteral("<p><b>GPU %1</b><br>").arg(g.id);
        if (g.has_properties) {
            html += QObject::tr("Name: %1<br>").arg(QString::fromStdString(g.name).toHtmlEscaped());
            html += QObject::tr("Memory: %1<br>").arg(format::bytes(double(g.memory_bytes)));
            html += QObject::tr("Compute Capability: %1.%2<br>")
                        .arg(g.compute_major)
                        .arg(g.compute_minor);
        }
        html += QObject::tr("GPU Utilization: %1<br>").arg(percentOrDash(g.utilization));
        html += QObject::tr("Est. SM Efficiency: %1<br>").arg(percentOrDash(g.sm_efficiency));
        // Kineto's occupancy is a percentage already.
        html += QObject::tr("Est. Achieved Occupancy: %1<br>")
                    .arg(g.occupancy ? QString::number(*g.occupancy, 'f', 2) + QStringLiteral(" %")
                                     : QStringLiteral("–"));
        html += QObject::tr("Kernel Time using Tensor Cores: %1</p>")
                    .arg(percentOrDash(g.tensor_core_ratio));
    }
    return html;
}

QString recommendationsHtml(const std::vector<TraceRecommendation>& recommendations) {
    if (recommendations.empty()) return QObject::tr("No recommendations.");
    QString html = QStringLiteral("<ul>");
    for (const TraceRecommendation& r : recommendations)
        html += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(r.text).toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

QString diagnosisHtml(const std::vector<DiagnosisFinding>& findings) {
    QString html = QStringLiteral("<ul>");
    for (const DiagnosisFinding& f : findings)
        html += QStringLiteral("<li><a href=\"view:%1\"><b>%2</b></a>: %3</li>")
                    .arg(QString::fromStdString(f.view),
                         QString::fromStdString(f.title).toHtmlEscaped(),
                         QString::fromStdString(f.text).toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

OverviewView::OverviewView(QWidget* parent)
    : QWidget(parent), source_(new QLabel), message_(new QLabel), body_(new QWidget),
      chart_(new StepBreakdownChart), share_(new AverageShareChart),
      average_(new AverageStepModel(this)), proxy_(new SortFilterProxy(this)),
      table_(new QTableView), gpus_(richLabel()), recommendations_(richLabel()),
      diagnosis_(richLabel()) {
    setObjectName(QStringLiteral("overviewView"));
    source_->setWordWrap(true);
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    proxy_->setSourceModel(average_);
    TableOptions options;
    options.stretchLastColumn = true;
    setUpTable(table_, proxy_, nullptr, options);

    auto* details = new QSplitter(Qt::Horizontal);
    auto* average = new QWidget;
    auto* average_layout = new QVBoxLayout(average);
    average_layout->setContentsMargins(0, 0, 0, 0);
    average_layout->addWidget(share_);
    average_layout->addWidget(table_, 1);
    details->addWidget(boxed(tr("Average step"), average));
    details->addWidget(boxed(tr("GPU summary"), gpus_));
    details->addWidget(boxed(tr("Recommendations"), recommendations_));
    diagnosis_box_ = boxed(tr("Diagnosis (why the GPU waits)"), diagnosis_);
    details->addWidget(diagnosis_box_);
    details->setStretchFactor(0, 2);
    details->setStretchFactor(1, 1);
    details->setStretchFactor(2, 2);
    details->setStretchFactor(3, 2);
    diagnosis_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(diagnosis_, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("view:"))) emit viewRequested(link.mid(5));
    });

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(chart_);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* body = new QVBoxLayout(body_);
    body->setContentsMargins(0, 0, 0, 0);
    body->addWidget(split);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(source_);
    layout->addWidget(message_, 1);
    layout->addWidget(body_, 1);
    clear();
}

void OverviewView::showDocument(const sources::Document& doc) {
    const std::shared_ptr<const GpuTraceAnalysis> analysis =
        doc.trace ? doc.analysis->analysis() : nullptr;
    const bool trace_has_gpu = analysis && !analysis->empty() && analysis->overview.showsGpu();
    if (analysis && (trace_has_gpu || !doc.run || doc.run->steps.empty())) {
        OverviewContent content = overviewOfTrace(*analysis);
        // Steps found from the optimizer's ranges (no ProfilerStep#N): say so.
        QString derived = QString::fromStdString(derivedStepsText(*doc.trace));
        if (!derived.isEmpty() && !content.source.isEmpty()) {
            derived[0] = derived[0].toUpper();
            content.source += QLatin1Char('\n') + derived + QLatin1Char('.');
        }
        setContent(content);
        if (const std::shared_ptr<const GpuDiagnoses>& d = doc.analysis->diagnoses)
            setDiagnosis(summarizeDiagnoses(*doc.trace, *d));
        else
            setDiagnosis({}, tr("Made when a diagnosis view (GPU ▸ Temporal, Idle Time, "
                                "Launches, …) is first shown (a large trace opens with its "
                                "Overview and Timeline)."));
        return;
    }
    if (!doc.run) {
        clear();
        return;
    }
    setContent(overviewOfRun(*doc.run));
    setDiagnosis({});
}

void OverviewView::followSelection(DocumentSelection* selection) {
    connect(chart_, &StepBreakdownChart::stepClicked, this, [this, selection](int index) {
        const OverviewStep& step = content_.steps[size_t(index)];
        if (step.step >= 0 && step.end_ns > step.start_ns)
            selection->selectStep(step.step, step.start_ns, step.end_ns, this);
    });
}

void OverviewView::clear() {
    OverviewContent empty;
    empty.empty_message =
        tr("Nothing opened yet: open a run or a Chrome / Kineto trace (File ▸ Open, or drop it on "
           "the window) to see where each step's time goes.");
    setContent(empty);
    setDiagnosis({});
}

void OverviewView::setContent(const OverviewContent& content) {
    content_ = content;
    source_->setText(content_.source);
    source_->setVisible(!content_.source.isEmpty());
    const bool empty = content_.empty();
    message_->setText(empty && content_.empty_message.isEmpty() ? tr("No steps to show.")
                                                                : content_.empty_message);
    message_->setVisible(empty);
    body_->setVisible(!empty);
    chart_->setContent(content_);
    share_->setContent(content_);
    average_->setContent(content_);
    table_->resizeColumnsToContents();
    gpus_->setText(gpuSummaryHtml(content_.gpus));
    recommendations_->setText(recommendationsHtml(content_.recommendations));
}

void OverviewView::setDiagnosis(const std::vector<DiagnosisFinding>& findings,
                                const QString& message) {
    diagnosis_->setText(findings.empty() ? message.toHtmlEscaped() : diagnosisHtml(findings));
    diagnosis_box_->setVisible(!findings.empty() || !message.isEmpty());
}

QString OverviewView::diagnosisText() const {
    return diagnosis_box_->isVisibleTo(this) ? diagnosis_->text() : QString();
}

QString OverviewView::gpuText() const {
    return gpus_->text();
}

QString OverviewView::recommendationsText() const {
    return recommendations_->text();
}

QString OverviewView::messageText() const {
    return message_->isVisibleTo(this) ? message_->text() : QString();
}

} // namespace ts::gui
