#include "inspect/ReadProgressLine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include <unistd.h>

#include "inspect/Megabytes.h"

namespace ts {

namespace {

using Clock = std::chrono::steady_clock;

// Small traces read in well under this: no line flickers by for them.
constexpr auto kFirstLineAfter = std::chrono::milliseconds(300);
constexpr auto kLineEvery = std::chrono::milliseconds(200);

struct LineState {
    Clock::time_point started = Clock::now();
    Clock::time_point last{};
    size_t width = 0; // characters of the line shown, 0 none
};

// The line "reading LABEL: COUNTS (P%)", COUNTS from `counts(done, total)`.
ReadProgress progressLine(const std::string& label, std::ostream& err, bool terminal,
                          std::string (*counts)(uint64_t done, uint64_t total)) {
    ReadProgress progress;
    if (!terminal) return progress;
    auto state = std::make_shared<LineState>();
    progress.report = [label, &err, state, counts](uint64_t done, uint64_t total) {
        const Clock::time_point now = Clock::now();
        if (done >= total) { // finished: erase the line
            if (state->width > 0)
                err << '\r' << std::string(state->width, ' ') << '\r' << std::flush;
            state->width = 0;
            return true;
        }
        if (now - state->started < kFirstLineAfter || now - state->last < kLineEvery) return true;
        state->last = now;
        const int percent = total > 0 ? static_cast<int>(done * 100 / total) : 0;
        std::string line =
            "reading " + label + ": " + counts(done, total) + " (" + std::to_string(percent) + "%)";
        const size_t width = line.size();
        if (width < state->width) line += std::string(state->width - width, ' ');
        err << '\r' << line << std::flush;
        state->width = std::max(state->width, width);
        return true;
    };
    return progress;
}

} // namespace

bool stderrIsTerminal() {
    return ::isatty(STDERR_FILENO) == 1;
}

ReadProgress readProgressLine(const std::string& file, std::ostream& err, bool terminal) {
    return progressLine(file, err, terminal, [](uint64_t done, uint64_t total) {
        return wholeMegabytes(done) + "/" + wholeMegabytes(total) + " MB";
    });
}

ReadProgress rankFilesProgressLine(const std::string& folder, std::ostream& err, bool terminal) {
    return progressLine(folder, err, terminal, [](uint64_t done, uint64_t total) {
        return std::to_string(done) + "/" + std::to_string(total) + " rank files";
    });
}

} // namespace ts
