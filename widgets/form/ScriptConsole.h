#pragma once
// What a user's script shows and takes while it runs: its output as it
// prints it (stdout and stderr together; the run directory keeps both in
// full), and the probe's two requests, "Trace the next N steps" and, on
// CUDA, "Memory snapshot now" (taken at the script's next step).
#include <string>

#include <QStringDecoder>
#include <QWidget>

#include "training/LiveUpdate.h"

class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace ts::gui {

class ScriptConsole : public QWidget {
    Q_OBJECT
public:
    // Lines kept on screen, and bytes shown per tick (a script printing
    // faster leaves the rest to stdout.log and stderr.log).
    static constexpr int kMaxLines = 5000;
    static constexpr size_t kMaxBytesPerTick = 256 * 1024;

    explicit ScriptConsole(QWidget* parent = nullptr);

    QString text() const;
    QPlainTextEdit* output() const { return output_; }
    QPushButton* traceButton() const { return trace_; }
    QSpinBox* traceSteps() const { return trace_steps_; }
    QPushButton* snapshotButton() const { return snapshot_; }

public slots:
    void beginRun();
    // The output and, from the run's start, its device (CUDA enables the snapshot).
    void append(const ts::gui::LiveUpdate& update);
    void finishRun();

signals:
    void traceRequested(int steps);
    void snapshotRequested();

private:
    void appendBytes(const std::string& bytes);
    void updateButtons();

    QPlainTextEdit* output_;
    QPushButton* trace_;
    QSpinBox* trace_steps_;
    QPushButton* snapshot_;
    QStringDecoder decoder_{QStringDecoder::Utf8}; // a character may span two ticks
    bool running_ = false;
    bool cuda_ = false;
};

} // namespace ts::gui
