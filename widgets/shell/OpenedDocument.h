#pragma once
// A document as the GUI holds it: core's (sources/Document.h), opened
// through the source registry off the GUI thread (DocumentLoader) or made
// by a stream (a run's profiling windows, LiveCaptures). Several can be open
// at once (DocumentSelector); copies share the trace and its analysis.
#include <QMetaType>
#include <QString>

#include "sources/Document.h"
#include "sources/OpenDocument.h"

namespace ts::gui {

using OpenedDocument = sources::Document;
using sources::AnalysisNeed;
using sources::DocumentAnalysis;

// The absolute path a document opened from `path` is known by.
inline QString documentPath(const QString& path) {
    return QString::fromStdString(sources::documentPath(path.toStdString()));
}

// Opens `path` through the source registry, blocking (tests, and the
// loader's worker through DocumentLoader).
inline OpenedDocument openDocument(const QString& path, const ReadProgress& progress = {},
                                   size_t defer_views_above = sources::kDeferViewsAboveEvents) {
    sources::OpenRequest request;
    request.progress = progress;
    request.defer_views_above = defer_views_above;
    return sources::openDocument(path.toStdString(), request);
}

} // namespace ts::gui

Q_DECLARE_METATYPE(ts::gui::OpenedDocument)
