#pragma once
// The application's persistent settings, typed. Every QSettings key lives in
// AppSettings.cpp and nowhere else; panels ask this object, never QSettings.
#include <memory>

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

class QSettings;

namespace ts::gui {

enum class Theme { System, Light, Dark };
QString toString(Theme theme);
Theme themeFromString(const QString& text); // unknown text -> System

// Roofline peaks last entered or measured (0 = not set).
struct PeakSettings {
    double fp32_gflops = 0;
    double low_gflops = 0; // bf16 (CPU) / fp16 (CUDA)
    double bandwidth_gbs = 0;
};

class AppSettings {
public:
    // The user's settings file (organisation/application names from QCoreApplication).
    AppSettings();
    // A specific ini file (tests, --settings).
    explicit AppSettings(const QString& iniPath);
    ~AppSettings();
    AppSettings(const AppSettings&) = delete;
    AppSettings& operator=(const AppSettings&) = delete;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);
    QByteArray headerState(const QString& table) const;
    void setHeaderState(const QString& table, const QByteArray& state);
    QString currentView() const;
    void setCurrentView(const QString& view);

    Theme theme() const;
    void setTheme(Theme theme);

    // The experiment last shown in the form, as config JSON (empty = preset default).
    QString lastConfigJson() const;
    void setLastConfigJson(const QString& json);
    QString lastPreset() const;
    void setLastPreset(const QString& preset);
    // Local processes of the form's run (1 = train in the GUI's own process).
    int lastProcesses() const;
    void setLastProcesses(int processes);
    // The Experiment dock's kind of run ("model", "script") and the Python
    // script form's values as JSON (empty: the form's defaults).
    QString lastRunKind() const;
    void setLastRunKind(const QString& kind);
    QString lastScriptJson() const;
    void setLastScriptJson(const QString& json);
    // The Experiments view's last request (mode, keys, values, steps, pruning
    // inputs) as JSON, so its controls come back as the user left them.
    QString lastExperimentRequestJson() const;
    void setLastExperimentRequestJson(const QString& json);

    // The LibTorch module the GUI loads first (Settings ▸ LibTorch); empty:
    // the newest that loads. Read at start-up only.
    QString torchBackend() const;
    void setTorchBackend(const QString& module);

    // Where new runs are written and the first folder the Runs view scans.
    QString runsRoot() const;
    void setRunsRoot(const QString& dir);
    // For this session only (--runs-dir): not written to the settings file.
    void overrideRunsRoot(const QString& dir) { runs_root_override_ = dir; }
    // Further folders scanned for runs (e.g. where trainscope-cli wrote some).
    QStringList runFolders() const;
    void addRunFolder(const QString& dir);
    void removeRunFolder(const QString& dir);

    // Recently opened runs and traces, most recent first, at most kMaxRecent.
    static constexpr int kMaxRecent = 10;
    QStringList recentFiles() const;
    void addRecentFile(const QString& path);
    void clearRecentFiles();

    // The Query tab's saved queries: name -> SQL.
    QMap<QString, QString> savedQueries() const;
    void saveQuery(const QString& name, const QString& sql);
    void removeQuery(const QString& name);

    PeakSettings rooflinePeaks() const;
    void setRooflinePeaks(const PeakSettings& peaks);

    QString lastBrowseDir() const;
    void setLastBrowseDir(const QString& dir);

    // Where the Live jobs panel puts the traces it asks for (default: a
    // `traces` folder in the runs folder).
    QString liveTraceFolder() const;
    void setLiveTraceFolder(const QString& dir);

    void sync();

private:
    std::unique_ptr<QSettings> store_;
    QString runs_root_override_;
};

} // namespace ts::gui
