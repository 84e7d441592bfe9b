#pragma once
// Lines of a probe (docs/script-probe.md) for the scenarios that the stand-in
// interpreter (tests/data/script_probe/fake_python.sh) plays: the script
// tests of the core and of the GUI.
#include <string>

namespace ts::testing {

// A probe on the CPU saying hello.
inline const char* const kProbeHello =
    R"({"t":"hello","v":1,"pid":7,"rank":0,"world_size":1,"python":"3.11.2",)"
    R"("torch":"2.15.0","device":"cpu","executable":"/venv/bin/python"})"
    "\n";

// `count` steps of 20 ms, numbered from 0.
inline std::string probeSteps(int count) {
    std::string lines;
    for (int i = 0; i < count; ++i)
        lines += R"({"t":"step","step":)" + std::to_string(i) +
                 R"(,"step_ms":20,"data_ms":2,"forward_ms":5,"backward_ms":8,"optimizer_ms":3,)"
                 R"("batch":16,"loss":1.5,"lr":0.01,"rss":123456})"
                 "\n";
    return lines;
}

} // namespace ts::testing
