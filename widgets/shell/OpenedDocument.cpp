#include "shell/OpenedDocument.h"

#include <QDir>
#include <QFileInfo>

#include "shell/TraceFile.h"

namespace ts::gui {
namespace {

bool isRunDirectory(const QFileInfo& info) {
    return info.isDir() &&
           QFileInfo(QDir(info.filePath()).filePath(QString::fromLatin1(run_files::kRunJson)))
               .isFile();
}

QFileInfo documentInfo(const QString& path) {
    const QFileInfo info(path);
    // run.json itself means its run directory.
    if (info.isFile() && info.fileName() == QLatin1String(run_files::kRunJson))
        return QFileInfo(info.absolutePath());
    return info;
}

void loadTraceInto(OpenedDocument& doc, const QString& path, const ReadProgress& progress) {
    doc.trace_path = path;
    try {
        doc.trace = readTraceFile(path, progress);
        doc.gpu_analysis = std::make_shared<const GpuTraceAnalysis>(analyzeGpuTrace(*doc.trace));
        const DeviceOpTree& tree = doc.gpu_analysis->tree;
        doc.memory = std::make_shared<const MemoryView>(computeMemoryView(*doc.trace, tree));
        doc.modules = std::make_shared<const ModuleView>(computeModuleView(*doc.trace, tree));
    } catch (const TraceReadCancelled&) {
        doc.cancelled = true;
    } catch (const std::exception& error) {
        doc.trace_error = QString::fromUtf8(error.what());
    }
}

} // namespace

QString OpenedDocument::title() const {
    if (run)
        return QStringLiteral("%1 (%2)").arg(QString::fromStdString(run->info.config.name),
                                             QFileInfo(path).fileName());
    return QFileInfo(path).fileName();
}

QString documentPath(const QString& path) {
    return documentInfo(path).absoluteFilePath();
}

OpenedDocument openDocument(const QString& path, const ReadProgress& progress) {
    OpenedDocument doc;
    const QFileInfo info = documentInfo(path);
    doc.path = info.absoluteFilePath();
    if (!info.exists()) {
        doc.error = QObject::tr("%1 does not exist.").arg(path);
        return doc;
    }
    if (info.isDir() && !isRunDirectory(info)) {
        doc.error = QObject::tr("%1 is not a run directory (it has no %2).")
                        .arg(path, QString::fromLatin1(run_files::kRunJson));
        return doc;
    }
    if (info.isDir()) {
        try {
            doc.run = loadRun(doc.path.toStdString(), true);
        } catch (const std::exception& error) {
            doc.error = QString::fromUtf8(error.what());
            return doc;
        }
        const QString trace = QDir(doc.path).filePath(QString::fromLatin1(run_files::kTraceJson));
        if (QFileInfo(trace).isFile()) loadTraceInto(doc, trace, progress);
        return doc;
    }
    loadTraceInto(doc, doc.path, progress);
    if (!doc.trace) doc.error = doc.trace_error;
    return doc;
}

} // namespace ts::gui
