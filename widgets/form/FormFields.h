#pragma once
// Binds form widgets to ExperimentConfig keys: each field knows its config key,
// how to show a config value and how to write it back. The form is then a list
// of add* calls, and validation issues (keyed like the config) find their widget.
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QObject>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>

#include "config/ExperimentConfig.h"
#include "form/PathEdit.h"

class QVBoxLayout;

namespace ts::gui {

// A titled group of rows at the end of `layout` (a form's section).
QFormLayout* addFormSection(QVBoxLayout* layout, const QString& title);
// The form's sections, scrolled vertically in the dock's width.
QScrollArea* scrollingSections(QWidget* sections);

// Highlights `widget` while it has `messages` (its tooltip says them) and
// gives its own tooltip back, kept in `ownTooltip`, once it has none.
void markFieldIssues(QWidget* widget, const QStringList& messages, QString& ownTooltip);

class FormFields : public QObject {
    Q_OBJECT
public:
    explicit FormFields(QObject* parent = nullptr) : QObject(parent) {}

    // `access` is a generic lambda `[](auto& c) -> auto& { return c.field; }`
    // so the same accessor reads a const config and writes a mutable one.
    template <typename Access>
    QSpinBox* addInt(const std::string& key, Access access, int min, int max) {
        auto* box = new QSpinBox;
        box->setRange(min, max);
        box->setAccelerated(true);
        using T = std::decay_t<decltype(access(std::declval<ExperimentConfig&>()))>;
        add(
            key, box,
            [box, access](const ExperimentConfig& c) {
                const QSignalBlocker block(box);
                box->setValue(int(access(c)));
            },
            [box, access](ExperimentConfig& c) { access(c) = T(box->value()); });
        connect(box, &QSpinBox::valueChanged, this, &FormFields::edited);
        return box;
    }

    // Free numbers (learning rate 3e-4, momentum): a line edit so any notation
    // works; text that is not a number becomes a form issue.
    template <typename Access> QLineEdit* addNumber(const std::string& key, Access access) {
        auto* edit = new QLineEdit;
        add(
            key, edit,
            [edit, access](const ExperimentConfig& c) {
                const QSignalBlocker block(edit);
                edit->setText(QString::number(access(c), 'g', 6));
            },
            [this, key, edit, access](ExperimentConfig& c) {
                bool ok = false;
                const double value = edit->text().trimmed().toDouble(&ok);
                if (ok)
                    access(c) = value;
                else
                    noteParseProblem(key, edit->text(), "is not a number");
            });
        connect(edit, &QLineEdit::textEdited, this, &FormFields::edited);
        return edit;
    }

    template <typename Access>
    QCheckBox* addBool(const std::string& key, Access access, const QString& text) {
        auto* box = new QCheckBox(text);
        add(
            key, box,
            [box, access](const ExperimentConfig& c) {
                const QSignalBlocker block(box);
                box->setChecked(access(c));
            },
            [box, access](ExperimentConfig& c) { access(c) = box->isChecked(); });
        connect(box, &QCheckBox::toggled, this, &FormFields::edited);
        return box;
    }

    // Choices come from ts::allowedValues(key).
    template <typename Access> QComboBox* addChoice(const std::string& key, Access access) {
        auto* box = new QComboBox;
        for (const std::string& value : allowedValues(key))
            box->addItem(QString::fromStdString(value));
        add(
            key, box, [box, access](const ExperimentConfig& c) { selectText(box, access(c)); },
            [box, access](ExperimentConfig& c) { access(c) = box->currentText().toStdString(); });
        connect(box, &QComboBox::currentIndexChanged, this, &FormFields::edited);
        return box;
    }

    template <typename Access> QLineEdit* addText(const std::string& key, Access access) {
        auto* edit = new QLineEdit;
        add(
            key, edit,
            [edit, access](const ExperimentConfig& c) {
                const QSignalBlocker block(edit);
                edit->setText(QString::fromStdString(access(c)));
            },
            [edit, access](ExperimentConfig& c) {
                access(c) = edit->text().trimmed().toStdString();
            });
        connect(edit, &QLineEdit::textEdited, this, &FormFields::edited);
        return edit;
    }

    // A path with a Browse button; `directory` picks folders instead of files.
    template <typename Access>
    PathEdit* addPath(const std::string& key, Access access, bool directory) {
        auto* edit = new PathEdit(directory ? PathEdit::Mode::Directory : PathEdit::Mode::File);
        add(
            key, edit,
            [edit, access](const ExperimentConfig& c) {
                edit->setPath(QString::fromStdString(access(c)));
            },
            [edit, access](ExperimentConfig& c) { access(c) = edit->path().toStdString(); });
        connect(edit, &PathEdit::pathEdited, this, &FormFields::edited);
        return edit;
    }

    // A field whose widget the caller manages (device, precision).
    void addCustom(const std::string& key, QWidget* widget,
                   std::function<void(const ExperimentConfig&)> load,
                   std::function<void(ExperimentConfig&)> store) {
        add(key, widget, std::move(load), std::move(store));
    }

    void load(const ExperimentConfig& config);
    // Writes every field into `config`; returns the fields that could not be parsed.
    std::vector<ConfigIssue> store(ExperimentConfig& config);

    QWidget* widgetFor(const std::string& key) const;
    // Highlights the widgets named by `issues` (tooltip = the message) and
    // clears the highlight of all others. Keys without a widget are ignored.
    void markIssues(const std::vector<ConfigIssue>& issues);
    void setEditable(bool editable);

signals:
    void edited();

private:
    struct Field {
        std::string key;
        QWidget* widget = nullptr;
        std::function<void(const ExperimentConfig&)> load;
        std::function<void(ExperimentConfig&)> store;
        QString tooltip; // the field's own help while it shows an issue instead
    };
    void add(const std::string& key, QWidget* widget,
             std::function<void(const ExperimentConfig&)> load,
             std::function<void(ExperimentConfig&)> store);
    void noteParseProblem(const std::string& key, const QString& text, const char* what);
    static void selectText(QComboBox* box, const std::string& text);

    std::vector<Field> fields_;
    std::vector<ConfigIssue> parse_problems_;
};

} // namespace ts::gui
