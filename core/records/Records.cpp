#include "records/Records.h"

#include <stdexcept>

namespace ts {

const char* toString(RunStatus status) {
    switch (status) {
    case RunStatus::Running:
        return "running";
    case RunStatus::Completed:
        return "completed";
    case RunStatus::Cancelled:
        return "cancelled";
    case RunStatus::Failed:
        return "failed";
    }
    return "unknown";
}

RunStatus runStatusFromString(const std::string& text) {
    for (auto s :
         {RunStatus::Running, RunStatus::Completed, RunStatus::Cancelled, RunStatus::Failed})
        if (text == toString(s)) return s;
    throw std::invalid_argument("unknown run status \"" + text + "\"");
}

} // namespace ts
