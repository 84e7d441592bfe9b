// A sweep, ladder or pruning study's directory as a document: the
// Experiments view shows it as the study left it.
#include "sources/SourceOpeners.h"

namespace ts::sources {

void openers::experiment(Document& doc, const SourceProbe& probe, const OpenRequest&) {
    doc.experiment = std::make_shared<const ExperimentReport>(readExperimentReport(probe.path));
}

} // namespace ts::sources
