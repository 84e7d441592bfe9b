#pragma once
// This machine's name, as run records and ranks' summaries carry it.
#include <unistd.h>

#include <string>

namespace ts {

// Empty when the system will not say.
inline std::string hostName() {
    char host[256] = {};
    if (::gethostname(host, sizeof(host) - 1) != 0) return "";
    return host;
}

} // namespace ts
