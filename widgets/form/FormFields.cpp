#include "form/FormFields.h"

#include <algorithm>

#include <QGroupBox>
#include <QScrollArea>
#include <QVBoxLayout>

namespace ts::gui {
namespace {

// Highlight that reads on light and dark palettes alike.
const char* const kInvalidStyle = "background-color: rgba(220, 60, 60, 70);";

} // namespace

void FormFields::add(const std::string& key, QWidget* widget,
                     std::function<void(const ExperimentConfig&)> load,
                     std::function<void(ExperimentConfig&)> store) {
    widget->setObjectName(QString::fromStdString(key));
    fields_.push_back({key, widget, std::move(load), std::move(store), {}});
}

void FormFields::load(const ExperimentConfig& config) {
    for (const Field& field : fields_)
        field.load(config);
}

std::vector<ConfigIssue> FormFields::store(ExperimentConfig& config) {
    parse_problems_.clear();
    for (const Field& field : fields_)
        field.store(config);
    return parse_problems_;
}

void FormFields::noteParseProblem(const std::string& key, const QString& text, const char* what) {
    const std::string value = text.trimmed().toStdString();
    parse_problems_.push_back({key, value, "'" + value + "' " + what + "."});
}

QWidget* FormFields::widgetFor(const std::string& key) const {
    const auto it =
        std::find_if(fields_.begin(), fields_.end(), [&](const Field& f) { return f.key == key; });
    return it == fields_.end() ? nullptr : it->widget;
}

QFormLayout* addFormSection(QVBoxLayout* layout, const QString& title) {
    auto* group = new QGroupBox(title);
    auto* form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    layout->addWidget(group);
    return form;
}

QScrollArea* scrollingSections(QWidget* sections) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(sections);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

void markFieldIssues(QWidget* widget, const QStringList& messages, QString& ownTooltip) {
    const bool invalid = !messages.isEmpty();
    const bool was_invalid = widget->property("invalid").toBool();
    if (invalid && !was_invalid) ownTooltip = widget->toolTip();
    widget->setProperty("invalid", invalid);
    widget->setStyleSheet(invalid ? QString::fromLatin1(kInvalidStyle) : QString());
    if (invalid)
        widget->setToolTip(messages.join(QLatin1Char('\n')));
    else if (was_invalid)
        widget->setToolTip(ownTooltip);
}

void FormFields::markIssues(const std::vector<ConfigIssue>& issues) {
    for (Field& field : fields_) {
        QStringList messages;
        for (const ConfigIssue& issue : issues)
            if (issue.key == field.key) messages << QString::fromStdString(issue.message);
        markFieldIssues(field.widget, messages, field.tooltip);
    }
}

void FormFields::setEditable(bool editable) {
    for (const Field& field : fields_)
        field.widget->setEnabled(editable);
}

void FormFields::selectText(QComboBox* box, const std::string& text) {
    const QSignalBlocker block(box);
    const QString value = QString::fromStdString(text);
    int index = box->findText(value);
    if (index < 0) {
        // Keep values the list does not know visible, so validation can flag them.
        box->addItem(value);
        index = box->count() - 1;
    }
    box->setCurrentIndex(index);
}

} // namespace ts::gui
