#include "runs/RunRow.h"

#include <QDir>
#include <QFileInfo>

namespace ts::gui {

RunRow readRunRow(const QString& dir) {
    RunRow row;
    try {
        row = runRowFrom(loadRun(dir.toStdString(), false));
    } catch (const std::exception& error) {
        row.name = QFileInfo(dir).fileName().toStdString();
        row.status = "unreadable";
        row.error = error.what();
    }
    row.dir = QDir::cleanPath(dir).toStdString();
    row.modified_s = QFileInfo(QDir(dir).filePath(QString::fromLatin1(run_files::kRunJson)))
                         .lastModified()
                         .toSecsSinceEpoch();
    return row;
}

} // namespace ts::gui
