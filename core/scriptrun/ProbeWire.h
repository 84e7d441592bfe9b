#pragma once
// The probe's wire format, version 1 (docs/script-probe.md): UTF-8 JSON
// objects, one per line, each with its type in "t". The lines come from
// another process (the user's script), so they are read like a file: a line
// that is not what the format says is an error naming the line, never a crash.
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts::scriptrun {

inline constexpr int kProbeWireVersion = 1;
// A memory line of a model with many parameter groups is a few hundred bytes;
// a line this long is not the probe's.
inline constexpr size_t kMaxProbeLineBytes = size_t(1) << 20;

class ProbeWireError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ProbeLineType {
    Hello,
    Device,
    Step,
    Late,
    Memory,
    Epoch,
    Trace,
    Slow,
    Snapshot,
    Note,
    Bye,
    Other
};

struct ProbeLine {
    ProbeLineType type = ProbeLineType::Other;
    nlohmann::json body; // the object, keys checked when read (ProbeRecords.h)
};

// One JSON object with a string "t"; unknown types are Other (skipped, so a
// newer probe may add lines). Throws ProbeWireError saying what is wrong.
ProbeLine parseProbeLine(std::string_view text);

// Cuts a byte stream into lines. Bytes arrive in any pieces (a socket's
// reads); a line longer than kMaxProbeLineBytes ends the stream.
class LineSplitter {
public:
    using LineHandler = std::function<void(std::string_view line)>;
    // Calls `on_line` for each complete line (without its '\n'). Throws
    // ProbeWireError when a line grows past the limit.
    void feed(std::string_view bytes, const LineHandler& on_line);
    // What is left without a '\n' when the stream ends (a line cut short).
    const std::string& pending() const { return pending_; }

private:
    std::string pending_;
};

} // namespace ts::scriptrun
