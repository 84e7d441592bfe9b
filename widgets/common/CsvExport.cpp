#include "common/CsvExport.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QFile>
#include <QSaveFile>

#include "common/ItemRoles.h"

namespace ts::gui {
namespace {

QString quoted(QString field) {
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
        !field.contains(QLatin1Char('\n')))
        return field;
    field.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + field + QLatin1Char('"');
}

QString cell(const QAbstractItemModel& model, int row, int column) {
    const QModelIndex index = model.index(row, column);
    const QVariant raw = index.data(SortRole);
    if (!raw.isValid()) return {}; // unknown: an empty field, not the "–" shown on screen
    switch (raw.typeId()) {
    case QMetaType::Double:
        return QString::number(raw.toDouble(), 'g', 10);
    case QMetaType::Int:
    case QMetaType::LongLong:
        return raw.toString();
    case QMetaType::QDateTime:
        return raw.toDateTime().toString(Qt::ISODate);
    default:
        return index.data(Qt::DisplayRole).toString();
    }
}

} // namespace

QString modelToCsv(const QAbstractItemModel& model) {
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << quoted(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    lines << header.join(QLatin1Char(','));
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < model.columnCount(); ++c)
            fields << quoted(cell(model, r, c));
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool writeTextFile(const QString& path, const QString& text, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error) *error = QObject::tr("Cannot write %1: %2.").arg(path, file.errorString());
        return false;
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        if (error) *error = QObject::tr("Cannot write %1: %2.").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ts::gui
