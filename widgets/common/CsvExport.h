#pragma once
// Writes any table model as CSV (RFC 4180 quoting). Numbers are written raw
// (SortRole) so spreadsheets get values, not "12.3 ms"; text columns as shown.
#include <QString>

class QAbstractItemModel;

namespace ts::gui {

QString modelToCsv(const QAbstractItemModel& model);
// Throws nothing; returns false with a message naming the file on failure.
bool writeTextFile(const QString& path, const QString& text, QString* error);

} // namespace ts::gui
