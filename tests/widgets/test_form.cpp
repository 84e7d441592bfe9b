// The experiment form: values round-trip, invalid input is flagged on the
// field before Start, devices and precisions the machine lacks are disabled.
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "TestConfigs.h"
#include "WidgetTests.h"
#include "config/ConfigJson.h"
#include "form/DevicePicker.h"
#include "form/ExperimentForm.h"
#include "form/RunPanel.h"

using namespace ts;
using namespace ts::gui;

namespace {

std::vector<DeviceOption> fakeDevices() {
    DeviceOption cpu{"cpu", "CPU (test)", true, "", {"fp32"}};
    DeviceOption gpu{"cuda:0", "cuda:0 Test GPU", true, "", {"fp32", "bf16", "fp16"}};
    DeviceOption absent{"cuda:1", "cuda:1", false, "no second GPU in this machine", {}};
    return {cpu, gpu, absent};
}

// What LibTorch would answer for the fake devices: a precision runs where the
// device lists it.
std::string fakeSupport(const std::string& device, const std::string& precision) {
    for (const DeviceOption& option : fakeDevices()) {
        if (option.id != device) continue;
        for (const std::string& listed : option.precisions)
            if (listed == precision) return {};
        return precision + " does not run on " + device + " (test)";
    }
    return "no device " + device + " (test)";
}

bool hasIssue(const ExperimentForm& form, const std::string& key) {
    for (const ConfigIssue& issue : form.issues())
        if (issue.key == key) return true;
    return false;
}

bool itemEnabled(QComboBox* box, int row) {
    return qobject_cast<QStandardItemModel*>(box->model())->item(row)->isEnabled();
}

} // namespace

class FormTest : public QObject {
    Q_OBJECT
private slots:
    void roundTripsTheConfig() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        ExperimentConfig c = testing::tinyConfig();
        c.lr = 3e-4;
        c.optimizer = "adamw";
        c.schedule = "step";
        c.profile.enabled = true;
        c.profile.active = 4;
        c.fused_optimizer = false;
        form.setConfig(c);
        QVERIFY2(form.isValid(),
                 form.issues().empty() ? "" : form.issues().front().message.c_str());
        QCOMPARE(configToJson(form.config()).dump(), configToJson(c).dump());
    }

    // The fused SGD step is a checkbox, on by default as in a config file.
    void fusedOptimizerIsACheckbox() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        form.setConfig(testing::tinyConfig());
        auto* fused = qobject_cast<QCheckBox*>(form.fieldWidget("fused_optimizer"));
        QVERIFY(fused);
        QVERIFY(fused->isChecked());
        QVERIFY(fused->toolTip().contains(QStringLiteral("optimizer_implementation")));
        fused->click();
        QCOMPARE(form.config().fused_optimizer, false);
    }

    void flagsTextThatIsNotANumber() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        form.setConfig(testing::tinyConfig());
        auto* lr = qobject_cast<QLineEdit*>(form.fieldWidget("lr"));
        QVERIFY(lr);
        lr->setText(QStringLiteral("fast"));
        emit lr->textEdited(lr->text());
        QTRY_VERIFY(hasIssue(form, "lr")); // re-checked shortly after typing
        QVERIFY(lr->property("invalid").toBool());
        QVERIFY(lr->toolTip().contains(QStringLiteral("'fast' is not a number")));
        lr->setText(QStringLiteral("0.1"));
        emit lr->textEdited(lr->text());
        QTRY_VERIFY(!hasIssue(form, "lr"));
        QVERIFY(!lr->property("invalid").toBool());
        QCOMPARE(form.config().lr, 0.1);
    }

    void flagsWhatValidateConfigRejects() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        ExperimentConfig c = testing::tinyConfig();
        c.dataset = "fashion-mnist";
        c.data_dir = "/nonexistent/trainscope-data";
        c.profile.enabled = true;
        c.profile.active = 0;
        form.setConfig(c);
        QVERIFY(!form.isValid());
        QVERIFY(hasIssue(form, "data_dir"));
        QVERIFY(hasIssue(form, "profile.active"));
        QVERIFY(form.fieldWidget("data_dir")->property("invalid").toBool());
        QVERIFY(
            form.fieldWidget("profile.active")->toolTip().contains(QStringLiteral("at least 1")));
        auto* active = qobject_cast<QSpinBox*>(form.fieldWidget("profile.active"));
        active->setValue(2);
        QTRY_VERIFY(!hasIssue(form, "profile.active"));
        QVERIFY(!active->property("invalid").toBool());
    }

    void startIsBlockedWhileInvalid() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        RunPanel panel;
        QObject::connect(&form, &ExperimentForm::issuesChanged, &panel,
                         [&](const std::vector<ConfigIssue>& issues) {
                             panel.setStartBlocked(issues.empty() ? QString()
                                                                  : QStringLiteral("invalid"));
                         });
        ExperimentConfig c = testing::tinyConfig();
        c.pin_memory = true; // CPU device: rejected by validateConfig
        form.setConfig(c);
        QVERIFY(!panel.startButton()->isEnabled());
        c.pin_memory = false;
        form.setConfig(c);
        QVERIFY(panel.startButton()->isEnabled());
    }

    void absentDevicesAreDisabledWithTheReason() {
        DevicePicker picker(fakeDevices(), fakeSupport);
        QComboBox* devices = picker.deviceBox();
        QCOMPARE(devices->count(), 3);
        QVERIFY(itemEnabled(devices, 0));
        QVERIFY(!itemEnabled(devices, 2));
        QCOMPARE(devices->itemData(2, Qt::ToolTipRole).toString(),
                 QStringLiteral("no second GPU in this machine"));
        QVERIFY(devices->itemText(2).contains(QStringLiteral("unavailable")));
    }

    void precisionsFollowTheDevice() {
        DevicePicker picker(fakeDevices(), fakeSupport);
        QComboBox* precisions = picker.precisionBox();
        picker.select("cpu", "fp32");
        QVERIFY(itemEnabled(precisions, 0));  // fp32
        QVERIFY(!itemEnabled(precisions, 2)); // fp16 not on this CPU
        QVERIFY(!precisions->itemData(2, Qt::ToolTipRole).toString().isEmpty());
        picker.select("cuda:0", "fp16");
        QVERIFY(itemEnabled(precisions, 2));
        QCOMPARE(picker.precision(), std::string("fp16"));
        // Switching back to the CPU by hand falls back to a precision it runs.
        picker.deviceBox()->setCurrentIndex(0);
        QCOMPARE(picker.precision(), std::string("fp32"));
        // A device from another machine stays visible (and disabled) instead of vanishing.
        picker.select("cuda:7", "fp32");
        QCOMPARE(picker.device(), std::string("cuda:7"));
        QVERIFY(!itemEnabled(picker.deviceBox(), picker.deviceBox()->currentIndex()));
    }

    void presetsLoadIntoTheForm() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        QVERIFY(form.selectPreset(QStringLiteral("synthetic-smoke")));
        QCOMPARE(form.config().name, std::string("synthetic-smoke"));
        QCOMPARE(form.config().dataset, std::string("synthetic"));
        QCOMPARE(form.presetName(), QStringLiteral("synthetic-smoke"));
        QString error;
        QVERIFY(!form.selectPreset(QStringLiteral("no-such-preset"), &error));
        QVERIFY(error.contains(QStringLiteral("no-such-preset")));
        QCOMPARE(form.config().name, std::string("synthetic-smoke")); // unchanged
    }

    void dependentFieldsFollowChoices() {
        ExperimentForm form(listPresets(), fakeDevices(), fakeSupport);
        ExperimentConfig c = testing::tinyConfig();
        form.setConfig(c);
        QVERIFY(form.fieldWidget("image_size")->isEnabled());
        QVERIFY(!form.fieldWidget("data_dir")->isEnabled());
        QVERIFY(!form.fieldWidget("profile.active")->isEnabled());
        c.dataset = "cifar10";
        c.profile.enabled = true;
        form.setConfig(c);
        QVERIFY(!form.fieldWidget("image_size")->isEnabled());
        QVERIFY(form.fieldWidget("profile.active")->isEnabled());
        form.setRunning(true);
        QVERIFY(!form.fieldWidget("batch_size")->isEnabled());
        form.setRunning(false);
        QVERIFY(form.fieldWidget("batch_size")->isEnabled());
    }
};

TRAINSCOPE_WIDGET_TEST(test_form, FormTest)
#include "test_form.moc"
