#pragma once
// steps.csv: one row per training step, every phase in milliseconds.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "records/Records.h"

namespace ts {

std::string stepsCsvHeader();
std::string stepsCsvRow(const StepRecord& step);
// Throws RunFormatError naming the file and line on malformed rows.
std::vector<StepRecord> readStepsCsv(const std::filesystem::path& path);

} // namespace ts
