#include "common/ExportFile.h"

#include <filesystem>
#include <system_error>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryFile>

#include "common/AppSettings.h"

namespace ts::gui {
namespace {

QString startIn(const AppSettings& settings, const QString& startDir) {
    return startDir.isEmpty() ? settings.lastBrowseDir() : startDir;
}

} // namespace

bool writeFileAtomically(const QString& path, const FileWriter& write, QString* error) {
    const QFileInfo target(path);
    const QString suffix =
        target.suffix().isEmpty() ? QString() : QLatin1Char('.') + target.suffix();
    QTemporaryFile temp(target.absoluteDir().filePath(
        QStringLiteral(".%1.XXXXXX%2").arg(target.completeBaseName(), suffix)));
    if (!temp.open()) {
        if (error) *error = QObject::tr("Cannot write %1: %2.").arg(path, temp.errorString());
        return false;
    }
    const QString temp_path = temp.fileName();
    temp.close();
    QString why;
    if (!write(temp_path, &why)) {
        // The writer names the file it was given; the user chose `path`.
        if (error)
            *error = why.isEmpty() ? QObject::tr("Cannot write %1.").arg(path)
                                   : why.replace(temp_path, path);
        return false;
    }
    // A temporary file is private (0600); the export gets the usual permissions.
    QFile::setPermissions(temp_path, target.exists()
                                         ? target.permissions()
                                         : QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                               QFileDevice::ReadGroup | QFileDevice::ReadOther);
    std::error_code failed;
    std::filesystem::rename(temp_path.toStdString(), path.toStdString(), failed);
    if (failed) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2.")
                         .arg(path, QString::fromStdString(failed.message()));
        return false;
    }
    temp.setAutoRemove(false); // renamed: nothing left to remove
    return true;
}

QString exportFileInteractive(QWidget* parent, AppSettings& settings, const QString& title,
                              const QString& fileName, const QString& filter,
                              const FileWriter& write, const QString& startDir) {
    const QString path = QFileDialog::getSaveFileName(
        parent, title, QDir(startIn(settings, startDir)).filePath(fileName), filter);
    if (path.isEmpty()) return {};
    settings.setLastBrowseDir(QFileInfo(path).absolutePath());
    QString error;
    if (writeFileAtomically(path, write, &error)) return path;
    warnFailure(parent, title, error);
    return {};
}

QString chooseFolderInteractive(QWidget* parent, AppSettings& settings, const QString& title,
                                const QString& startDir) {
    const QString dir =
        QFileDialog::getExistingDirectory(parent, title, startIn(settings, startDir));
    if (!dir.isEmpty()) settings.setLastBrowseDir(QFileInfo(dir).absolutePath());
    return dir;
}

QString chooseFileInteractive(QWidget* parent, AppSettings& settings, const QString& title,
                              const QString& filter) {
    const QString path =
        QFileDialog::getOpenFileName(parent, title, settings.lastBrowseDir(), filter);
    if (!path.isEmpty()) settings.setLastBrowseDir(QFileInfo(path).absolutePath());
    return path;
}

void warnFailure(QWidget* parent, const QString& title, const QString& error) {
    QMessageBox::warning(parent, title, error);
}

} // namespace ts::gui
