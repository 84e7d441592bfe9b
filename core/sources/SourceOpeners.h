#pragma once
// How each kind of the registry opens (SourceRegistry.cpp lists them; only
// the registry and its tests include this). Each fills the document whose
// path is set and throws a sentence naming the file when it cannot.
#include "sources/Document.h"
#include "sources/SourceRegistry.h"

namespace ts::sources::openers {

void trace(Document& doc, const SourceProbe& probe, const OpenRequest& request);
void run(Document& doc, const SourceProbe& probe, const OpenRequest& request);
void rankFolder(Document& doc, const SourceProbe& probe, const OpenRequest& request);
void allocatorSnapshot(Document& doc, const SourceProbe& probe, const OpenRequest& request);
void memoryTimeline(Document& doc, const SourceProbe& probe, const OpenRequest& request);
void experiment(Document& doc, const SourceProbe& probe, const OpenRequest& request);

} // namespace ts::sources::openers
