#include "runs/RunScanner.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <QDir>

#include "report/RunDirectory.h"

namespace ts::gui {

std::vector<RunRow> scanRuns(const QStringList& roots) {
    std::vector<RunRow> rows;
    std::set<QString> seen;
    for (const QString& root : roots) {
        std::vector<std::filesystem::path> dirs;
        try {
            dirs = findRuns(root.toStdString());
        } catch (const std::exception&) {
            continue; // a folder that vanished or cannot be read simply has no runs
        }
        for (const auto& dir : dirs) {
            const QString path = QDir::cleanPath(QString::fromStdString(dir.string()));
            const QString key =
                QDir(path).canonicalPath().isEmpty() ? path : QDir(path).canonicalPath();
            if (!seen.insert(key).second) continue;
            rows.push_back(readRunRow(path));
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const RunRow& a, const RunRow& b) { return a.modified_s > b.modified_s; });
    return rows;
}

} // namespace ts::gui
