#include "inspect/PresetsCommand.h"

#include <exception>
#include <iomanip>

#include "config/Presets.h"
#include "inspect/ExitCodes.h"

namespace ts {

int presetsCommand(std::ostream& out, std::ostream& err) {
    try {
        for (const auto& p : listPresets())
            out << std::left << std::setw(30) << p.name << (p.needs_cuda ? "[cuda] " : "")
                << p.description << "\n";
        return exit_code::kOk;
    } catch (const std::exception& e) { // a broken preset compiled in: a build defect
        err << "error: " << e.what() << "\n";
        return exit_code::kFailure;
    }
}

} // namespace ts
