// What a user's script sends Trainscope through its probe's socket
// (scriptrun/ProbeWire.h, ProbeRank.h): the input as a byte stream cut at
// 0x1e into the pieces reads return. Whatever the bytes, the stream ends with
// a reason or goes on; each line is taken or refused with a warning; the run
// starts once, before any step; every step handed on has a finite,
// non-negative time; and no file outside the rank's trace folder is read.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "scriptrun/ProbeRank.h"
#include "scriptrun/ProbeWire.h"

namespace {

using namespace ts;

class Checks : public TrainerObserver {
public:
    void onRunStarted(const RunInfo&) override {
        if (++starts > 1) fuzz::propertyBroken("the run started twice");
    }
    void onStep(const StepRecord& s) override {
        if (starts == 0) fuzz::propertyBroken("a step before the run started");
        if (!std::isfinite(s.step_ms) || s.step_ms < 0 || s.phases.other_ms < 0)
            fuzz::propertyBroken("a step with an impossible time");
        if (s.global_step < 0 || s.batch_size < 0) fuzz::propertyBroken("a negative count");
    }
    void onProfile(const ProfileCapture&) override {
        fuzz::propertyBroken("a trace read from outside the trace folder");
    }
    void onMessage(LogLevel, const std::string& text) override {
        if (text.empty()) fuzz::propertyBroken("a message without words");
    }
    int starts = 0;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Checks checks;
    scriptrun::ProbeRank rank(
        checks, [](const scriptrun::ProbeHello&) { return RunInfo{}; }, "/nonexistent/traces");
    scriptrun::LineSplitter lines;
    try {
        for (const std::string& piece : fuzz::splitInput(data, size, '\x1e', 64))
            lines.feed(piece, [&](std::string_view line) { rank.onLine(line); });
    } catch (const scriptrun::ProbeWireError& e) {
        if (std::string(e.what()).empty()) fuzz::propertyBroken("a stream ended without a reason");
    }
    rank.endOfStream();
    if (rank.steps() > 0 && checks.starts != 1) fuzz::propertyBroken("steps without a run");
    return 0;
}
