#pragma once
// What the Live jobs panel asks of a job: the next N steps or the next D
// milliseconds, with shapes, memory, stacks or modules, into a folder the
// user chose (remembered), and the two buttons that ask it of the selected
// process or of its whole job.
#include <QWidget>

#include "ondemand/TraceRequest.h"

class QCheckBox;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace ts::gui {

class AppSettings;
class PathEdit;

class TraceControls : public QWidget {
    Q_OBJECT
public:
    explicit TraceControls(AppSettings& settings, QWidget* parent = nullptr);

    ondemand::TraceRequest request() const;
    QString outputFolder() const;
    // Whether a process is selected to trace.
    void setTargetChosen(bool chosen);

    QSpinBox* stepsBox() const { return steps_; }
    QSpinBox* durationBox() const { return duration_ms_; }
    QRadioButton* byDuration() const { return by_duration_; }
    QCheckBox* shapesBox() const { return shapes_; }
    PathEdit* folderEdit() const { return folder_; }
    QPushButton* traceButton() const { return trace_; }
    QPushButton* jobButton() const { return job_; }

signals:
    void traceClicked();
    void jobClicked();

private:
    void updateButtons();

    AppSettings& settings_;
    QRadioButton* by_steps_;
    QRadioButton* by_duration_;
    QSpinBox* steps_;
    QSpinBox* duration_ms_;
    QCheckBox* shapes_;
    QCheckBox* memory_;
    QCheckBox* stacks_;
    QCheckBox* modules_;
    PathEdit* folder_;
    QPushButton* trace_;
    QPushButton* job_;
    bool target_chosen_ = false;
};

} // namespace ts::gui
