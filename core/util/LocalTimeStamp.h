#pragma once
// The local time now as YYYYmmdd-HHMMSS: the first part of the names of run
// directories and of traces taken on demand, so that they sort by time.
#include <ctime>
#include <string>

namespace ts {

inline std::string localTimeStamp() {
    const std::time_t wall = std::time(nullptr);
    std::tm local{};
    localtime_r(&wall, &local);
    char text[32];
    std::strftime(text, sizeof(text), "%Y%m%d-%H%M%S", &local);
    return text;
}

} // namespace ts
