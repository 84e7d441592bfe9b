// Nsight Compute CSV exports (analysis/NcuCsv.h), both layouts: anything
// but a usable export is an NcuFormatError naming what is missing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/NcuCsv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)ts::parseNcuCsv(text, "fuzz.csv");
    } catch (const ts::NcuFormatError&) {
    }
    return 0;
}
