#pragma once
// What opening a path produced: a run (its records, and its trace when it has
// one) or a bare Chrome trace.
#include <memory>
#include <optional>

#include <QMetaType>
#include <QString>

#include "report/RunDirectory.h"
#include "trace/Trace.h"

namespace ts::gui {

struct OpenedDocument {
    QString path;
    std::optional<RunRecord> run;
    std::shared_ptr<const Trace> trace;
    QString trace_path;
    QString error;       // the path could not be opened at all
    QString trace_error; // the run opened, its trace did not

    bool ok() const { return error.isEmpty(); }
    QString title() const;
};

// Opens `path` (run directory, its run.json, or a trace file). Blocking;
// never throws: problems end up in error / trace_error.
OpenedDocument openDocument(const QString& path);

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::OpenedDocument)
