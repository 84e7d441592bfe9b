#include "live/RunInfoPanel.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "common/Format.h"
#include "report/RunTables.h"

namespace ts::gui {
namespace {

QString row(const QString& name, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:10px'><b>%1</b></td><td>%2</td></tr>")
        .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

RunInfoPanel::RunInfoPanel(QWidget* parent)
    : QWidget(parent), title_(new QLabel), info_(new QLabel), summary_(new QLabel),
      log_(new QPlainTextEdit) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    QFont bold = title_->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    title_->setFont(bold);
    title_->setWordWrap(true);
    for (QLabel* label : {info_, summary_}) {
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    log_->setPlaceholderText(tr("Messages from the engine appear here."));
    layout->addWidget(title_);
    layout->addWidget(info_);
    layout->addWidget(summary_);
    layout->addWidget(log_, 1);
    clear();
}

void RunInfoPanel::clear() {
    title_->setText(tr("No run yet: configure an experiment and press Start, or open a run."));
    info_->clear();
    summary_->clear();
    log_->clear();
}

void RunInfoPanel::setTitle(const QString& title) {
    title_->setText(title);
}

namespace {

// A user's script: what ran, with what, where (the model and data are the script's own).
QString scriptRows(const RunInfo& info) {
    const ScriptSource& s = info.source;
    QStringList command{s.script.empty() ? QStringLiteral("-m ") + qs(s.module) : qs(s.script)};
    for (const std::string& arg : s.args)
        command << qs(arg);
    QString device = qs(info.config.device);
    if (!s.device_name.empty()) device += QStringLiteral(" (%1)").arg(qs(s.device_name));
    if (s.world_size > 1) device += QObject::tr(", %1 ranks").arg(s.world_size);
    return row(QObject::tr("Script"), command.join(QLatin1Char(' '))) +
           row(QObject::tr("Folder"), qs(s.cwd)) +
           row(QObject::tr("Python"),
               QObject::tr("%1, torch %2 · %3")
                   .arg(qs(s.python_version), qs(s.torch_version), qs(s.python))) +
           row(QObject::tr("Device"), device);
}

} // namespace

void RunInfoPanel::setInfo(const RunInfo& info) {
    if (info.source.present()) {
        info_->setText(QStringLiteral("<table>%1</table>").arg(scriptRows(info)));
        return;
    }
    const ExperimentConfig& c = info.config;
    QString html = QStringLiteral("<table>");
    html +=
        row(tr("Model"), tr("%1 (%2 stem), %3 parameters, %4 per image")
                             .arg(qs(c.model), qs(c.stem), format::count(double(info.parameters)),
                                  format::flops(2.0 * info.forward_macs)));
    html += row(tr("Data"), tr("%1: %2 train / %3 val, batch %4, %5 steps per epoch")
                                .arg(qs(c.dataset))
                                .arg(info.train_samples)
                                .arg(info.val_samples)
                                .arg(c.batch_size)
                                .arg(info.steps_per_epoch));
    html += row(
        tr("Device"),
        tr("%1, %2, %3 threads").arg(qs(c.device), qs(c.precision)).arg(info.env.intra_op_threads));
    html += row(tr("Machine"), qs(info.env.cpu_model) + QStringLiteral(" · ") + qs(info.env.blas));
    if (!info.env.torch_version.empty()) html += row(tr("LibTorch"), qs(libTorchText(info.env)));
    if (!info.optimizer_implementation.empty())
        html += row(tr("Optimizer"), tr("%1, lr %2: %3")
                                         .arg(qs(c.optimizer))
                                         .arg(c.lr)
                                         .arg(qs(info.optimizer_implementation)));
    html += QStringLiteral("</table>");
    info_->setText(html);
}

namespace {

// "2 (gloo): allreduce 83.4 ms per step, 75 % hidden behind backward; in sync"
QString ranksText(const DistributedSummary& d) {
    double allreduce = 0, overlap = 0;
    bool in_sync = !d.ranks.empty();
    for (const RankSummary& r : d.ranks) {
        allreduce += r.allreduce_ms_per_step;
        overlap += r.overlap_pct;
        in_sync = in_sync && r.param_checksum == d.ranks.front().param_checksum;
    }
    const double n = d.ranks.empty() ? 1.0 : double(d.ranks.size());
    return QObject::tr("%1 (%2): allreduce %3 per step, %4 % hidden behind backward; %5")
        .arg(d.world_size)
        .arg(QString::fromStdString(d.backend), format::duration(allreduce / n))
        .arg(overlap / n, 0, 'f', 0)
        .arg(in_sync ? QObject::tr("parameters in sync")
                     : QObject::tr("parameters differ between ranks"));
}

} // namespace

void RunInfoPanel::setSummary(const RunSummary& s) {
    QString html = QStringLiteral("<table>");
    html +=
        row(tr("Status"), QString::fromLatin1(toString(s.status)) +
                              (s.error.empty() ? QString() : QStringLiteral(": ") + qs(s.error)));
    html += row(tr("Steps"),
                tr("%1 in %2").arg(s.steps_completed).arg(format::seconds(s.total_time_s)));
    html += row(tr("Steady state"), tr("%1, %2 per step")
                                        .arg(format::rate(s.median_images_per_sec, tr("images/s")),
                                             format::duration(s.median_step_ms)));
    html += row(tr("Accuracy"), tr("train %1, val %2")
                                    .arg(format::percent(s.final_train_accuracy),
                                         format::percent(s.final_val_accuracy)));
    html += row(tr("Peak memory"), tr("tensors %1, RSS %2")
                                       .arg(format::bytes(double(s.peak_tensor_bytes)),
                                            format::bytes(double(s.peak_rss_bytes))));
    if (s.distributed.world_size > 1) html += row(tr("Ranks"), ranksText(s.distributed));
    html += QStringLiteral("</table>");
    summary_->setText(html);
}

void RunInfoPanel::addMessages(const std::vector<LogLine>& lines) {
    for (const LogLine& line : lines) {
        const char* prefix = line.level == LogLevel::Error     ? "error: "
                             : line.level == LogLevel::Warning ? "warning: "
                                                               : "";
        log_->appendPlainText(QString::fromLatin1(prefix) + qs(line.text));
    }
}

} // namespace ts::gui
