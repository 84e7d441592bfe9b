#include "TraceChecks.h"

#include <sstream>
#include <stdexcept>

#include "FuzzSupport.h"
#include "analysis/GpuTraceAnalysis.h"
#include "analysis/OpStats.h"
#include "trace/ChromeTraceReader.h"
#include "trace/ChromeTraceWriter.h"
#include "trace/FastTraceReader.h"

namespace ts::fuzz {

void analyzeTrace(const Trace& trace) {
    for (bool plugin : {false, true}) {
        GpuAnalysisOptions options;
        options.plugin_compatible = plugin;
        try {
            (void)analyzeGpuTrace(trace, options);
        } catch (const std::invalid_argument&) {
            // A trace the analysis cannot use, said in words: not a finding.
        }
    }
    (void)computeOpStats(trace);
}

void checkRoundTrip(const Trace& trace) {
    std::ostringstream out;
    writeChromeTrace(trace, out);
    TraceReadOptions sequential;
    sequential.sequential = true;
    try {
        const Trace again = parseChromeTrace(out.str(), "round trip", sequential);
        if (again.events.size() != trace.events.size())
            propertyBroken("round trip: " + std::to_string(trace.events.size()) +
                           " events written, " + std::to_string(again.events.size()) + " read");
    } catch (const TraceReadError& e) {
        propertyBroken(std::string("round trip: the writer's output does not read: ") + e.what());
    }
}

} // namespace ts::fuzz
