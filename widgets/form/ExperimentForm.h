#pragma once
// The experiment form: preset picker and every setting of a run, grouped as a
// user thinks about them. Invalid input is flagged on the field itself (and
// listed below the form) before Start, with validateConfigWith and the
// machine's device support.
#include <string>
#include <vector>

#include <QTimer>
#include <QWidget>

#include "backend/TorchBackend.h"
#include "config/ExperimentConfig.h"
#include "config/Presets.h"
#include "env/Devices.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QVBoxLayout;

namespace ts::gui {

class DevicePicker;
class FormFields;

class ExperimentForm : public QWidget {
    Q_OBJECT
public:
    ExperimentForm(std::vector<PresetInfo> presets, std::vector<DeviceOption> devices,
                   DeviceSupportCheck support, QWidget* parent = nullptr);
    // The machine's devices and their support once LibTorch has probed them.
    void setDevices(std::vector<DeviceOption> devices, DeviceSupportCheck support);
    // What the loaded LibTorch can do (form/TorchFeatureFields.h); re-checks.
    void setFeatures(const TorchFeatures& features);

    // The config as the form shows it (fields that do not parse keep the last value).
    ExperimentConfig config() const;
    void setConfig(const ExperimentConfig& config);
    // Loads a preset into the form; false (and a message in errorText) when unknown.
    bool selectPreset(const QString& name, QString* errorText = nullptr);
    QString presetName() const;
    // Local data-parallel processes (not a config key: how the run is launched).
    int processes() const;
    void setProcesses(int processes);

    // Problems of the current input; empty = ready to start.
    const std::vector<ConfigIssue>& issues() const { return issues_; }
    bool isValid() const { return issues_.empty(); }
    // Re-checks now (edits are re-checked after a short pause while typing).
    void revalidate();

    void setRunning(bool running);
    QWidget* fieldWidget(const std::string& key) const;

signals:
    void issuesChanged(const std::vector<ts::ConfigIssue>& issues);
    void configEdited();

private:
    void buildPresetRow(QVBoxLayout* layout);
    void buildModelSection(QFormLayout* form);
    void buildDataSection(QFormLayout* form);
    void buildDeviceSection(QFormLayout* form);
    void buildTrainingSection(QFormLayout* form);
    void buildProfilingSection(QFormLayout* form);
    void updateDependentFields();
    void onEdited();
    std::vector<ConfigIssue> collect(ExperimentConfig& config) const;

    std::vector<PresetInfo> presets_;
    FormFields* fields_;
    DevicePicker* devices_;
    QComboBox* preset_box_ = nullptr;
    QLabel* preset_note_ = nullptr;
    QLabel* issues_label_ = nullptr;
    QSpinBox* processes_ = nullptr;
    ExperimentConfig base_; // keys the form does not show come from here
    std::vector<ConfigIssue> issues_;
    TorchFeatures features_; // empty until LibTorch has loaded
    QTimer revalidate_timer_;
    bool running_ = false;
};

} // namespace ts::gui
