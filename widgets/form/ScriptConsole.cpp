#include "form/ScriptConsole.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ts::gui {

ScriptConsole::ScriptConsole(QWidget* parent)
    : QWidget(parent), output_(new QPlainTextEdit), trace_(new QPushButton(tr("Trace the next"))),
      trace_steps_(new QSpinBox), snapshot_(new QPushButton(tr("Memory snapshot now"))) {
    output_->setObjectName(QStringLiteral("scriptConsole"));
    output_->setReadOnly(true);
    output_->setMaximumBlockCount(kMaxLines);
    output_->setLineWrapMode(QPlainTextEdit::NoWrap);
    output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    output_->setPlaceholderText(tr("The script's output appears here."));
    trace_->setObjectName(QStringLiteral("traceNext"));
    trace_->setToolTip(tr("torch.profiler records the script's next steps (one more cycle); the "
                          "trace opens in the trace views."));
    trace_steps_->setObjectName(QStringLiteral("traceNextSteps"));
    trace_steps_->setRange(1, 1000);
    trace_steps_->setValue(3);
    snapshot_->setObjectName(QStringLiteral("memorySnapshot"));
    snapshot_->setToolTip(tr("On CUDA: the allocator's snapshot at the script's next step, saved "
                             "in the run directory."));

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(trace_);
    buttons->addWidget(trace_steps_);
    buttons->addWidget(new QLabel(tr("steps")));
    buttons->addStretch(1);
    buttons->addWidget(snapshot_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(buttons);
    layout->addWidget(output_, 1);

    connect(trace_, &QPushButton::clicked, this,
            [this] { emit traceRequested(trace_steps_->value()); });
    connect(snapshot_, &QPushButton::clicked, this, &ScriptConsole::snapshotRequested);
    updateButtons();
}

QString ScriptConsole::text() const {
    return output_->toPlainText();
}

void ScriptConsole::beginRun() {
    output_->clear();
    decoder_.resetState();
    running_ = true;
    cuda_ = false;
    updateButtons();
}

void ScriptConsole::append(const LiveUpdate& update) {
    if (!running_) return; // a run of Trainscope's own model
    if (update.started) {
        cuda_ = update.started->config.device.rfind("cuda", 0) == 0;
        updateButtons();
    }
    if (!update.console.empty()) appendBytes(update.console);
}

void ScriptConsole::finishRun() {
    running_ = false;
    updateButtons();
}

void ScriptConsole::appendBytes(const std::string& bytes) {
    QString text;
    if (bytes.size() > kMaxBytesPerTick) {
        decoder_.resetState();
        text = tr("[… %1 bytes not shown: stdout.log and stderr.log in the run directory hold "
                  "everything]\n")
                   .arg(bytes.size() - kMaxBytesPerTick);
        text += decoder_.decode(QByteArrayView(bytes).last(qsizetype(kMaxBytesPerTick)));
    } else {
        text = decoder_.decode(QByteArrayView(bytes));
    }
    // Progress bars rewrite their line with '\r': each state on a line of its own.
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    text.replace(QLatin1Char('\r'), QLatin1Char('\n'));
    QScrollBar* bar = output_->verticalScrollBar();
    const bool at_end = bar->value() == bar->maximum();
    QTextCursor cursor(output_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    if (at_end) bar->setValue(bar->maximum());
}

void ScriptConsole::updateButtons() {
    trace_->setEnabled(running_);
    trace_steps_->setEnabled(running_);
    snapshot_->setEnabled(running_ && cuda_);
}

} // namespace ts::gui
