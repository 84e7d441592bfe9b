#pragma once
// Device and precision choosers that only offer what this machine runs: absent
// devices and unsupported precisions stay listed but disabled, with the reason
// as tooltip, so the user sees why (e.g. "no CUDA device found").
#include <string>
#include <vector>

#include <QObject>

#include "env/Devices.h"

class QComboBox;

namespace ts::gui {

class DevicePicker : public QObject {
    Q_OBJECT
public:
    explicit DevicePicker(std::vector<DeviceOption> devices, QObject* parent = nullptr);

    QComboBox* deviceBox() const { return device_box_; }
    QComboBox* precisionBox() const { return precision_box_; }

    void select(const std::string& device, const std::string& precision);
    std::string device() const;
    std::string precision() const;

signals:
    void changed();

private:
    void fillPrecisions(bool fallback);
    const DeviceOption* currentOption() const;

    std::vector<DeviceOption> devices_;
    QComboBox* device_box_;
    QComboBox* precision_box_;
};

} // namespace ts::gui
