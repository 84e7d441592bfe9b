#pragma once
// Device and precision choosers that only offer what this machine runs: absent
// devices and unsupported precisions stay listed but disabled, with the reason
// as tooltip, so the user sees why (e.g. "no CUDA device found").
#include <string>
#include <vector>

#include <QObject>

#include "config/ExperimentConfig.h"
#include "env/Devices.h"

class QComboBox;

namespace ts::gui {

class DevicePicker : public QObject {
    Q_OBJECT
public:
    // `support` words why a device does not run a precision.
    DevicePicker(std::vector<DeviceOption> devices, DeviceSupportCheck support,
                 QObject* parent = nullptr);
    // The machine's devices once LibTorch has probed them; the selection stays.
    void setDevices(std::vector<DeviceOption> devices, DeviceSupportCheck support);

    // Why a device does not run a precision (empty: it does).
    const DeviceSupportCheck& support() const { return support_; }
    QComboBox* deviceBox() const { return device_box_; }
    QComboBox* precisionBox() const { return precision_box_; }

    void select(const std::string& device, const std::string& precision);
    std::string device() const;
    std::string precision() const;

signals:
    void changed();

private:
    void fillDevices();
    void fillPrecisions(bool fallback);
    const DeviceOption* currentOption() const;

    std::vector<DeviceOption> devices_;
    DeviceSupportCheck support_;
    QComboBox* device_box_;
    QComboBox* precision_box_;
};

} // namespace ts::gui
