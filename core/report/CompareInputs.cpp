#include "report/CompareInputs.h"

#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/NcuCsv.h"
#include "report/JsonNumbers.h"

namespace ts {
namespace {

void addTotals(OpTable& t) {
    t.total_self_cpu_ns = t.total_self_device_ns = 0;
    for (const auto& r : t.rows) {
        t.total_self_cpu_ns += r.self_cpu_ns;
        t.total_self_device_ns += r.self_device_ns;
    }
}

OpStat rowFromJson(const nlohmann::json& j) {
    OpStat r;
    r.name = j.value("name", "");
    r.shapes = j.value("input_shapes", "");
    r.backward = j.value("backward", false);
    r.calls = intValue(j, "calls", int64_t(0));
    r.self_cpu_ns = intValue(j, "self_cpu_ns", int64_t(0));
    r.cpu_total_ns = intValue(j, "cpu_total_ns", int64_t(0));
    r.self_device_ns = intValue(j, "self_device_ns", int64_t(0));
    r.device_total_ns = intValue(j, "device_total_ns", int64_t(0));
    r.cpu_mem_bytes = intValue(j, "cpu_mem_bytes", int64_t(0));
    r.self_cpu_mem_bytes = intValue(j, "self_cpu_mem_bytes", int64_t(0));
    r.flops = j.value("flops", 0.0);
    r.bytes = j.value("bytes", 0.0);
    return r;
}

bool isOpRows(const nlohmann::json& rows) {
    return rows.is_array() && !rows.empty() && rows[0].is_object() && rows[0].contains("name") &&
           rows[0].contains("self_cpu_ns");
}

} // namespace

OpTable readOpsCsv(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RunFormatError(path.string() + ": cannot open");
    std::ostringstream text;
    text << in.rdbuf();
    const auto records = parseCsvRecords(text.str());
    if (records.empty()) throw RunFormatError(path.string() + ": empty file (expected a header)");
    std::map<std::string, size_t> column;
    for (size_t i = 0; i < records[0].size(); ++i)
        column[records[0][i]] = i;
    for (const char* needed : {"name", "calls", "self_cpu_ns"})
        if (!column.count(needed))
            throw RunFormatError(path.string() + ": no \"" + needed +
                                 "\" column (is it an "
                                 "ops.csv from Trainscope?)");
    OpTable t;
    for (size_t line = 1; line < records.size(); ++line) {
        const auto& rec = records[line];
        auto text_of = [&](const char* key) {
            const auto it = column.find(key);
            return it != column.end() && it->second < rec.size() ? rec[it->second] : std::string();
        };
        auto number = [&](const char* key) {
            const std::string s = text_of(key);
            if (s.empty()) return 0.0;
            try {
                return std::stod(s);
            } catch (const std::exception&) {
                throw RunFormatError(path.string() + ": line " + std::to_string(line + 1) +
                                     ": column " + key + " is not a number (\"" + s + "\")");
            }
        };
        // A count or a duration, within int64's range (an edited or damaged
        // file can hold a value beyond it).
        auto integer = [&](const char* key) {
            const double v = number(key);
            if (!fitsInteger<int64_t>(v))
                throw RunFormatError(path.string() + ": line " + std::to_string(line + 1) +
                                     ": column " + key + " is out of range (\"" + text_of(key) +
                                     "\")");
            return int64_t(v);
        };
        OpStat r;
        r.name = text_of("name");
        r.shapes = text_of("input_shapes");
        r.backward = text_of("backward") == "1";
        r.calls = integer("calls");
        r.self_cpu_ns = integer("self_cpu_ns");
        r.cpu_total_ns = integer("cpu_total_ns");
        r.self_device_ns = integer("self_device_ns");
        r.device_total_ns = integer("device_total_ns");
        r.cpu_mem_bytes = integer("cpu_mem_bytes");
        r.self_cpu_mem_bytes = integer("self_cpu_mem_bytes");
        r.flops = number("flops");
        r.bytes = number("bytes");
        t.rows.push_back(std::move(r));
    }
    addTotals(t);
    return t;
}

std::optional<OpTable> opTableFromProfileJson(const nlohmann::json& profile) {
    if (profile.is_object() && profile.contains("rows") && isOpRows(profile["rows"])) {
        OpTable t;
        for (const auto& row : profile["rows"])
            t.rows.push_back(rowFromJson(row));
        addTotals(t);
        return t;
    }
    if (profile.is_object() || profile.is_array())
        for (const auto& item : profile)
            if (auto found = opTableFromProfileJson(item)) return found;
    return std::nullopt;
}

std::optional<OpTable> loadRunOps(const RunRecord& run) {
    if (run.hasOps()) return readOpsCsv(run.dir / run_files::kOpsCsv);
    return opTableFromProfileJson(run.profile);
}

int64_t profiledSteps(const RunRecord& run) {
    int64_t n = 0;
    for (const auto& s : run.steps)
        n += s.profiled;
    return n;
}

} // namespace ts
