#include "form/DevicePicker.h"

#include <algorithm>

#include <QComboBox>
#include <QSignalBlocker>
#include <QStandardItemModel>

namespace ts::gui {
namespace {

const char* const kPrecisions[] = {"fp32", "bf16", "fp16"};

void setItemEnabled(QComboBox* box, int index, bool enabled, const QString& reason) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    if (!model) return;
    QStandardItem* item = model->item(index);
    item->setEnabled(enabled);
    item->setToolTip(reason);
}

} // namespace

DevicePicker::DevicePicker(std::vector<DeviceOption> devices, DeviceSupportCheck support,
                           QObject* parent)
    : QObject(parent), devices_(std::move(devices)), support_(std::move(support)),
      device_box_(new QComboBox), precision_box_(new QComboBox) {
    fillDevices();
    for (const char* precision : kPrecisions)
        precision_box_->addItem(QString::fromLatin1(precision));
    fillPrecisions(false);
    connect(device_box_, &QComboBox::currentIndexChanged, this, [this] {
        fillPrecisions(true);
        emit changed();
    });
    connect(precision_box_, &QComboBox::currentIndexChanged, this, &DevicePicker::changed);
}

void DevicePicker::fillDevices() {
    for (const DeviceOption& option : devices_) {
        QString text = QString::fromStdString(option.label.empty() ? option.id : option.label);
        if (!option.available) text += tr(" — unavailable");
        device_box_->addItem(text, QString::fromStdString(option.id));
        setItemEnabled(device_box_, device_box_->count() - 1, option.available,
                       QString::fromStdString(option.reason));
    }
}

void DevicePicker::setDevices(std::vector<DeviceOption> devices, DeviceSupportCheck support) {
    const std::string device = this->device(), precision = this->precision();
    devices_ = std::move(devices);
    support_ = std::move(support);
    {
        const QSignalBlocker block(device_box_);
        device_box_->clear();
        fillDevices();
    }
    select(device, precision);
    emit changed();
}

const DeviceOption* DevicePicker::currentOption() const {
    const std::string id = device();
    const auto it = std::find_if(devices_.begin(), devices_.end(),
                                 [&](const DeviceOption& d) { return d.id == id; });
    return it == devices_.end() ? nullptr : &*it;
}

// Enables the precisions the selected device runs. When the user switches
// device and the chosen precision is not runnable there, it falls back to the
// first runnable one (select() never changes a loaded config silently).
void DevicePicker::fillPrecisions(bool fallback) {
    const QSignalBlocker block(precision_box_);
    const DeviceOption* option = currentOption();
    int first_allowed = -1;
    for (int i = 0; i < precision_box_->count(); ++i) {
        const std::string precision = precision_box_->itemText(i).toStdString();
        std::string problem;
        if (option && std::find(option->precisions.begin(), option->precisions.end(), precision) ==
                          option->precisions.end()) {
            problem = support_ ? support_(option->id, precision) : std::string();
            if (problem.empty()) problem = option->id + " does not run " + precision + ".";
        }
        setItemEnabled(precision_box_, i, problem.empty(), QString::fromStdString(problem));
        if (problem.empty() && first_allowed < 0) first_allowed = i;
    }
    auto* model = qobject_cast<QStandardItemModel*>(precision_box_->model());
    const int current = precision_box_->currentIndex();
    if (fallback && model && current >= 0 && !model->item(current)->isEnabled() &&
        first_allowed >= 0)
        precision_box_->setCurrentIndex(first_allowed);
}

void DevicePicker::select(const std::string& device, const std::string& precision) {
    {
        const QSignalBlocker block(device_box_);
        const QString id = QString::fromStdString(device);
        int index = device_box_->findData(id);
        if (index < 0) {
            // e.g. "cuda:3" from a config written on another machine: listed, disabled.
            device_box_->addItem(id + tr(" — not present"), id);
            index = device_box_->count() - 1;
            setItemEnabled(device_box_, index, false, tr("This machine has no device %1.").arg(id));
        }
        device_box_->setCurrentIndex(index);
    }
    {
        const QSignalBlocker block(precision_box_);
        const int index = precision_box_->findText(QString::fromStdString(precision));
        if (index >= 0) precision_box_->setCurrentIndex(index);
    }
    fillPrecisions(false);
}

std::string DevicePicker::device() const {
    return device_box_->currentData().toString().toStdString();
}

std::string DevicePicker::precision() const {
    return precision_box_->currentText().toStdString();
}

} // namespace ts::gui
