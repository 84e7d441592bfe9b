#include "common/AppSettings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace ts::gui {
namespace {

// All keys, in one place.
namespace key {
constexpr const char* kGeometry = "window/geometry";
constexpr const char* kState = "window/state";
constexpr const char* kHeaderPrefix = "window/header/";
constexpr const char* kView = "window/view";
constexpr const char* kTheme = "appearance/theme";
constexpr const char* kLastConfig = "experiment/config";
constexpr const char* kLastPreset = "experiment/preset";
constexpr const char* kLastProcesses = "experiment/processes";
constexpr const char* kLastRunKind = "experiment/kind";
constexpr const char* kLastScript = "experiment/script";
constexpr const char* kLastRequest = "experiments/request";
constexpr const char* kTorchBackend = "torch/backend_module";
constexpr const char* kRunsRoot = "runs/root";
constexpr const char* kRunFolders = "runs/folders";
constexpr const char* kRecent = "files/recent";
constexpr const char* kQueries = "query/saved";
constexpr const char* kBrowseDir = "files/browse_dir";
constexpr const char* kLiveTraceFolder = "live_jobs/trace_folder";
constexpr const char* kPeakFp32 = "roofline/fp32_gflops";
constexpr const char* kPeakLow = "roofline/low_gflops";
constexpr const char* kPeakBandwidth = "roofline/bandwidth_gbs";
} // namespace key

QString canonical(const QString& path) {
    const QFileInfo info(path);
    const QString resolved = info.canonicalFilePath();
    return resolved.isEmpty() ? info.absoluteFilePath() : resolved;
}

} // namespace

QString toString(Theme theme) {
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromString(const QString& text) {
    if (text.compare(QLatin1String("light"), Qt::CaseInsensitive) == 0) return Theme::Light;
    if (text.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0) return Theme::Dark;
    return Theme::System;
}

AppSettings::AppSettings() : store_(std::make_unique<QSettings>()) {}

AppSettings::AppSettings(const QString& iniPath)
    : store_(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {}

AppSettings::~AppSettings() = default;

QByteArray AppSettings::windowGeometry() const {
    return store_->value(key::kGeometry).toByteArray();
}
void AppSettings::setWindowGeometry(const QByteArray& g) {
    store_->setValue(key::kGeometry, g);
}
QByteArray AppSettings::windowState() const {
    return store_->value(key::kState).toByteArray();
}
void AppSettings::setWindowState(const QByteArray& s) {
    store_->setValue(key::kState, s);
}

QByteArray AppSettings::headerState(const QString& table) const {
    return store_->value(QLatin1String(key::kHeaderPrefix) + table).toByteArray();
}
void AppSettings::setHeaderState(const QString& table, const QByteArray& state) {
    store_->setValue(QLatin1String(key::kHeaderPrefix) + table, state);
}

QString AppSettings::currentView() const {
    return store_->value(key::kView).toString();
}
void AppSettings::setCurrentView(const QString& view) {
    store_->setValue(key::kView, view);
}

Theme AppSettings::theme() const {
    return themeFromString(store_->value(key::kTheme).toString());
}
void AppSettings::setTheme(Theme theme) {
    store_->setValue(key::kTheme, toString(theme));
}

QString AppSettings::lastConfigJson() const {
    return store_->value(key::kLastConfig).toString();
}
void AppSettings::setLastConfigJson(const QString& json) {
    store_->setValue(key::kLastConfig, json);
}
QString AppSettings::lastPreset() const {
    return store_->value(key::kLastPreset).toString();
}
void AppSettings::setLastPreset(const QString& p) {
    store_->setValue(key::kLastPreset, p);
}
int AppSettings::lastProcesses() const {
    const int n = store_->value(key::kLastProcesses, 1).toInt();
    return n >= 1 ? n : 1; // a hand-edited 0 or garbage reads as one process
}
void AppSettings::setLastProcesses(int processes) {
    store_->setValue(key::kLastProcesses, processes);
}
QString AppSettings::lastRunKind() const {
    return store_->value(key::kLastRunKind).toString();
}
void AppSettings::setLastRunKind(const QString& kind) {
    store_->setValue(key::kLastRunKind, kind);
}
QString AppSettings::lastScriptJson() const {
    return store_->value(key::kLastScript).toString();
}
void AppSettings::setLastScriptJson(const QString& json) {
    store_->setValue(key::kLastScript, json);
}
QString AppSettings::lastExperimentRequestJson() const {
    return store_->value(key::kLastRequest).toString();
}
void AppSettings::setLastExperimentRequestJson(const QString& json) {
    store_->setValue(key::kLastRequest, json);
}

QString AppSettings::torchBackend() const {
    return store_->value(key::kTorchBackend).toString();
}
void AppSettings::setTorchBackend(const QString& module) {
    store_->setValue(key::kTorchBackend, module);
}

QString AppSettings::runsRoot() const {
    if (!runs_root_override_.isEmpty()) return runs_root_override_;
    const QString stored = store_->value(key::kRunsRoot).toString();
    return stored.isEmpty() ? QDir::current().absoluteFilePath(QStringLiteral("runs")) : stored;
}
void AppSettings::setRunsRoot(const QString& dir) {
    store_->setValue(key::kRunsRoot, dir);
}

QStringList AppSettings::runFolders() const {
    return store_->value(key::kRunFolders).toStringList();
}

void AppSettings::addRunFolder(const QString& dir) {
    QStringList folders = runFolders();
    const QString path = canonical(dir);
    if (!folders.contains(path)) folders.append(path);
    store_->setValue(key::kRunFolders, folders);
}

void AppSettings::removeRunFolder(const QString& dir) {
    QStringList folders = runFolders();
    folders.removeAll(dir);
    folders.removeAll(canonical(dir));
    store_->setValue(key::kRunFolders, folders);
}

QStringList AppSettings::recentFiles() const {
    return store_->value(key::kRecent).toStringList();
}

void AppSettings::addRecentFile(const QString& path) {
    QStringList recent = recentFiles();
    const QString entry = canonical(path);
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    store_->setValue(key::kRecent, recent);
}

QMap<QString, QString> AppSettings::savedQueries() const {
    QMap<QString, QString> out;
    const QVariantMap stored = store_->value(key::kQueries).toMap();
    for (auto it = stored.begin(); it != stored.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

void AppSettings::saveQuery(const QString& name, const QString& sql) {
    QVariantMap stored = store_->value(key::kQueries).toMap();
    stored.insert(name, sql);
    store_->setValue(key::kQueries, stored);
}

void AppSettings::removeQuery(const QString& name) {
    QVariantMap stored = store_->value(key::kQueries).toMap();
    stored.remove(name);
    store_->setValue(key::kQueries, stored);
}

void AppSettings::clearRecentFiles() {
    store_->remove(key::kRecent);
}

PeakSettings AppSettings::rooflinePeaks() const {
    PeakSettings p;
    p.fp32_gflops = store_->value(key::kPeakFp32, 0.0).toDouble();
    p.low_gflops = store_->value(key::kPeakLow, 0.0).toDouble();
    p.bandwidth_gbs = store_->value(key::kPeakBandwidth, 0.0).toDouble();
    return p;
}
void AppSettings::setRooflinePeaks(const PeakSettings& p) {
    store_->setValue(key::kPeakFp32, p.fp32_gflops);
    store_->setValue(key::kPeakLow, p.low_gflops);
    store_->setValue(key::kPeakBandwidth, p.bandwidth_gbs);
}

QString AppSettings::lastBrowseDir() const {
    return store_->value(key::kBrowseDir).toString();
}
void AppSettings::setLastBrowseDir(const QString& dir) {
    store_->setValue(key::kBrowseDir, dir);
}

QString AppSettings::liveTraceFolder() const {
    const QString stored = store_->value(key::kLiveTraceFolder).toString();
    return stored.isEmpty() ? QDir(runsRoot()).filePath(QStringLiteral("traces")) : stored;
}
void AppSettings::setLiveTraceFolder(const QString& dir) {
    store_->setValue(key::kLiveTraceFolder, dir);
}

void AppSettings::sync() {
    store_->sync();
}

} // namespace ts::gui
