#pragma once
// Nsight Compute CSV exports -> per-kernel FLOPs, DRAM bytes and time for the
// roofline. Both layouts are read:
//  - `ncu --csv --page raw`: one row per kernel launch, one column per metric,
//    usually followed by a row of units;
//  - `ncu --csv` (details page): one row per metric with "Metric Name",
//    "Metric Unit" and "Metric Value", grouped by launch "ID".
// FLOPs = 2*ffma + fadd + fmul for single precision, plus the half (h*) and
// double (d*) variants when present (sm__ or smsp__ sass_thread_inst_executed
// metrics); bytes = dram__bytes.sum, or dram__bytes_read.sum +
// dram__bytes_write.sum; time = gpu__time_duration.sum. Values may carry
// thousands separators and scaled units (usecond, Mbyte, ...).
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/Roofline.h"

namespace ts {

// what() names the file and what is missing or malformed.
class NcuFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct NcuImport {
    std::vector<KernelCost> kernels; // one per kernel name, by total time, descending
    int64_t launches = 0;
    std::vector<std::string> notes; // metrics that were absent and taken as zero, ...
};

NcuImport readNcuCsv(const std::filesystem::path& path);
// `origin` names the text in error messages.
NcuImport parseNcuCsv(const std::string& text, const std::string& origin);

// RFC 4180 records: quoted fields may hold commas, doubled quotes and newlines.
// Used for every CSV Trainscope reads back.
std::vector<std::vector<std::string>> parseCsvRecords(const std::string& text);

// "1,234.5" -> 1234.5 (thousands separators dropped); false when not a number.
bool parseNcuNumber(const std::string& text, double& value);
// Multiplier from a value in `unit` to the base unit of its kind: nanoseconds
// for times (nsecond, usecond, msecond, second, ns, us, ms, s), bytes for sizes
// (byte, Kbyte, Mbyte, Gbyte, Tbyte; powers of 1000 as Nsight Compute prints
// them) and plain counts (inst, Kinst, ...). Unknown units: 1.
double ncuUnitScale(const std::string& unit);

} // namespace ts
