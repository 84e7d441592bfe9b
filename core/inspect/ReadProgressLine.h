#pragma once
// The trace commands' progress line on stderr while a large trace is read:
// "reading big.json: 412/1024 MB (40%)", rewritten in place a few times a
// second and erased when the read ends, so the command's own output (often
// piped) stays clean. Only on a terminal: a log file gets nothing.
#include <ostream>
#include <string>

#include "trace/ReadProgress.h"

namespace ts {

// `terminal`: whether `err` is a terminal (isatty); false gives an empty
// ReadProgress (no reports, no cost).
ReadProgress readProgressLine(const std::string& file, std::ostream& err, bool terminal);
// The same while a folder of rank traces is read: "reading ranks/: 312/1024
// rank files (30%)".
ReadProgress rankFilesProgressLine(const std::string& folder, std::ostream& err, bool terminal);

// True when stderr is a terminal.
bool stderrIsTerminal();

} // namespace ts
