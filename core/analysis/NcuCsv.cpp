#include "analysis/NcuCsv.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace ts {
namespace {

// Canonical names of the metrics the roofline needs.
const char* const kTime = "time";
const char* const kDram = "dram";
const char* const kDramRead = "dram_read";
const char* const kDramWrite = "dram_write";
const std::vector<std::string> kOps = {"ffma", "fadd", "fmul", "hfma", "hadd",
                                       "hmul", "dfma", "dadd", "dmul"};

// "sm__sass_thread_inst_executed_op_ffma_pred_on.sum" -> "ffma", "dram__bytes.sum" -> "dram".
std::optional<std::string> canonicalMetric(const std::string& name) {
    if (name == "gpu__time_duration.sum") return std::string(kTime);
    if (name == "dram__bytes.sum") return std::string(kDram);
    if (name == "dram__bytes_read.sum") return std::string(kDramRead);
    if (name == "dram__bytes_write.sum") return std::string(kDramWrite);
    for (const char* prefix : {"sm__", "smsp__"}) {
        const std::string head = std::string(prefix) + "sass_thread_inst_executed_op_";
        const std::string tail = "_pred_on.sum";
        if (name.size() == head.size() + 4 + tail.size() && name.rfind(head, 0) == 0 &&
            name.compare(name.size() - tail.size(), tail.size(), tail) == 0) {
            const std::string op = name.substr(head.size(), 4);
            if (std::find(kOps.begin(), kOps.end(), op) != kOps.end()) return op;
        }
    }
    return std::nullopt;
}

struct Launch {
    std::string kernel;
    std::map<std::string, double> metrics; // canonical name -> value in base units
};

int columnOf(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : int(it - header.begin());
}

std::string cell(const std::vector<std::string>& row, int column) {
    return column >= 0 && size_t(column) < row.size() ? row[column] : std::string();
}

bool blank(const std::vector<std::string>& row) {
    return std::all_of(row.begin(), row.end(), [](const std::string& c) { return c.empty(); });
}

void addMetric(Launch& launch, const std::string& canonical, const std::string& text,
               const std::string& unit) {
    double value = 0;
    if (parseNcuNumber(text, value)) launch.metrics[canonical] += value * ncuUnitScale(unit);
}

std::vector<Launch> wideLaunches(const std::vector<std::vector<std::string>>& records) {
    const auto& header = records[0];
    const int kernel = columnOf(header, "Kernel Name");
    size_t first = 1;
    std::vector<std::string> units(header.size());
    // The units row has no kernel name; its metric cells are unit words.
    if (records.size() > 1 && cell(records[1], kernel).empty()) {
        units = records[1];
        first = 2;
    }
    std::vector<Launch> launches;
    for (size_t r = first; r < records.size(); ++r) {
        if (blank(records[r])) continue;
        Launch launch;
        launch.kernel = cell(records[r], kernel);
        for (size_t c = 0; c < header.size(); ++c)
            if (auto canonical = canonicalMetric(header[c]))
                addMetric(launch, *canonical, cell(records[r], int(c)), cell(units, int(c)));
        launches.push_back(std::move(launch));
    }
    return launches;
}

std::vector<Launch> longLaunches(const std::vector<std::vector<std::string>>& records) {
    const auto& header = records[0];
    const int id = columnOf(header, "ID"), kernel = columnOf(header, "Kernel Name");
    const int name = columnOf(header, "Metric Name"), unit = columnOf(header, "Metric Unit");
    const int value = columnOf(header, "Metric Value");
    std::vector<Launch> launches;
    std::map<std::string, size_t> index; // launch key -> position
    for (size_t r = 1; r < records.size(); ++r) {
        const auto& row = records[r];
        if (blank(row)) continue;
        const std::string key = cell(row, id) + '\n' + cell(row, kernel);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, launches.size()).first;
            launches.push_back({cell(row, kernel), {}});
        }
        if (auto canonical = canonicalMetric(cell(row, name)))
            addMetric(launches[it->second], *canonical, cell(row, value), cell(row, unit));
    }
    return launches;
}

// Which of the needed metrics appear at all; throws when one is essential.
std::vector<std::string> checkMetrics(const std::vector<Launch>& launches,
                                      const std::string& origin) {
    std::map<std::string, bool> seen;
    for (const auto& l : launches)
        for (const auto& [k, v] : l.metrics)
            seen[k] = true;
    auto missing = [&](const std::string& what) {
        return NcuFormatError(origin + ": no " + what +
                              " values found; export with ncu --csv --page raw --metrics "
                              "gpu__time_duration.sum,dram__bytes.sum,"
                              "sm__sass_thread_inst_executed_op_{ffma,fadd,fmul}_pred_on.sum");
    };
    if (!seen[kTime]) throw missing("gpu__time_duration.sum");
    if (!seen[kDram] && !(seen[kDramRead] && seen[kDramWrite]))
        throw missing("dram__bytes.sum (or dram__bytes_read.sum + dram__bytes_write.sum)");
    std::vector<std::string> absent;
    for (const auto& op : kOps)
        if (!seen[op]) absent.push_back(op);
    if (absent.size() == kOps.size()) throw missing("sass_thread_inst_executed_op_* FLOP");
    std::vector<std::string> notes;
    if (!absent.empty()) {
        std::string list;
        for (const auto& op : absent)
            list += (list.empty() ? "" : ", ") + op;
        notes.push_back("instruction counts absent from the export, taken as zero: " + list);
    }
    notes.push_back("FLOPs count FFMA/FADD/FMUL-type instructions only: tensor-core (HMMA) "
                    "work is not included, so tensor-core kernels appear below their real rate");
    return notes;
}

double opFlops(const Launch& l, char precision) {
    auto get = [&](const char* op) {
        const auto it = l.metrics.find(std::string(1, precision) + op);
        return it == l.metrics.end() ? 0.0 : it->second;
    };
    return 2 * get("fma") + get("add") + get("mul");
}

} // namespace

std::vector<std::vector<std::string>> parseCsvRecords(const std::string& text) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, any = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                field += c;
            continue;
        }
        if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            any = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            if (any || !field.empty()) row.push_back(std::move(field));
            if (!row.empty()) records.push_back(std::move(row));
            row.clear();
            field.clear();
            any = false;
        } else {
            field += c;
            any = true;
        }
    }
    if (any || !field.empty()) row.push_back(std::move(field));
    if (!row.empty()) records.push_back(std::move(row));
    return records;
}

bool parseNcuNumber(const std::string& text, double& value) {
    std::string digits;
    for (char c : text)
        if (c != ',' && !std::isspace(static_cast<unsigned char>(c))) digits += c;
    if (digits.empty()) return false;
    char* end = nullptr;
    value = std::strtod(digits.c_str(), &end);
    return end == digits.c_str() + digits.size();
}

double ncuUnitScale(const std::string& raw) {
    std::string unit;
    for (char c : raw)
        if (!std::isspace(static_cast<unsigned char>(c))) unit += c;
    static const std::map<std::string, double> kTimes = {
        {"nsecond", 1}, {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9},
        {"ns", 1},      {"us", 1e3},      {"ms", 1e6},      {"s", 1e9}};
    if (const auto it = kTimes.find(unit); it != kTimes.end()) return it->second;
    static const std::map<char, double> kPrefix = {{'K', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}};
    // Scaled sizes and counts: Kbyte, Mbyte, Kinst, ... (letters after the prefix).
    if (unit.size() > 1 && kPrefix.count(unit[0]) &&
        std::all_of(unit.begin() + 1, unit.end(), [](char c) { return std::islower(c); }))
        return kPrefix.at(unit[0]);
    return 1;
}

NcuImport parseNcuCsv(const std::string& text, const std::string& origin) {
    // ncu prints "==PROF==" lines (and the application's own output) first.
    size_t start = std::string::npos;
    for (size_t pos = 0; pos < text.size();) {
        const size_t eol = std::min(text.find('\n', pos), text.size());
        if (text.substr(pos, eol - pos).find("Kernel Name") != std::string::npos) {
            start = pos;
            break;
        }
        pos = eol + 1;
    }
    if (start == std::string::npos)
        throw NcuFormatError(origin + ": not an Nsight Compute CSV export (no \"Kernel Name\" "
                                      "column; export with ncu --csv --page raw)");
    const auto records = parseCsvRecords(text.substr(start));
    const auto& header = records.at(0);
    const bool long_form =
        columnOf(header, "Metric Name") >= 0 && columnOf(header, "Metric Value") >= 0;
    const auto launches = long_form ? longLaunches(records) : wideLaunches(records);
    if (launches.empty()) throw NcuFormatError(origin + ": the export lists no kernel launches");
    NcuImport out;
    out.notes = checkMetrics(launches, origin);
    out.launches = int64_t(launches.size());
    std::map<std::string, size_t> by_name;
    std::vector<double> half_flops;
    for (const auto& l : launches) {
        auto [it, fresh] = by_name.emplace(l.kernel, out.kernels.size());
        if (fresh) {
            out.kernels.push_back({l.kernel, 0, 0, 0, 0, false});
            half_flops.push_back(0);
        }
        KernelCost& k = out.kernels[it->second];
        const auto metric = [&](const char* name) {
            const auto m = l.metrics.find(name);
            return m == l.metrics.end() ? 0.0 : m->second;
        };
        k.calls++;
        k.time_ns += metric(kTime);
        k.bytes += l.metrics.count(kDram) ? metric(kDram) : metric(kDramRead) + metric(kDramWrite);
        k.flops += opFlops(l, 'f') + opFlops(l, 'h') + opFlops(l, 'd');
        half_flops[it->second] += opFlops(l, 'h');
    }
    for (size_t i = 0; i < out.kernels.size(); ++i)
        out.kernels[i].low_precision = half_flops[i] > 0.5 * out.kernels[i].flops;
    std::stable_sort(out.kernels.begin(), out.kernels.end(),
                     [](const auto& a, const auto& b) { return a.time_ns > b.time_ns; });
    return out;
}

NcuImport readNcuCsv(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw NcuFormatError(path.string() + ": cannot open the Nsight Compute CSV file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseNcuCsv(text.str(), path.string());
}

} // namespace ts
