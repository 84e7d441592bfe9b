#pragma once
// The one way a view saves something the user asked for (CSV, PNG, a report
// folder) or opens a file or folder: the dialog starts in the remembered
// folder (AppSettings::lastBrowseDir), the folder chosen is remembered, a file
// is written atomically (into a temporary file beside the target, renamed over
// it only when complete, so a failed export never leaves half a file), and a
// failure is shown in a warning that names the path.
#include <functional>

#include <QString>

class QWidget;

namespace ts::gui {

class AppSettings;

// Writes `path`; false with a message in *error when it cannot.
using FileWriter = std::function<bool(const QString& path, QString* error)>;

// Ask, write, warn: `title` heads the dialog and the warning, `fileName` is
// the suggested name ("roofline.png"), `filter` the dialog's ("PNG images
// (*.png)"), `startDir` empty: the remembered folder. Returns the path
// written; empty when cancelled or failed.
QString exportFileInteractive(QWidget* parent, AppSettings& settings, const QString& title,
                              const QString& fileName, const QString& filter,
                              const FileWriter& write, const QString& startDir = {});

// `write` into a temporary file next to `path` (same suffix, so writers that
// pick the format by suffix still work), then renamed over `path`.
bool writeFileAtomically(const QString& path, const FileWriter& write, QString* error);

// A folder to write into or open (empty when cancelled); `startDir` empty:
// the remembered folder. The folder chosen is remembered.
QString chooseFolderInteractive(QWidget* parent, AppSettings& settings, const QString& title,
                                const QString& startDir = {});
// A file to read (empty when cancelled), starting in the remembered folder.
QString chooseFileInteractive(QWidget* parent, AppSettings& settings, const QString& title,
                              const QString& filter);

// The warning every failed export or open shows.
void warnFailure(QWidget* parent, const QString& title, const QString& error);

} // namespace ts::gui
