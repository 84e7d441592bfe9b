#include "analysis/OpTableFormat.h"
#include "util/Csv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ts {

namespace {

using Getter = std::function<double(const OpStat&)>;

const std::vector<std::pair<std::string, Getter>>& sortGetters() {
    static const std::vector<std::pair<std::string, Getter>> kKeys = {
        {"self_cpu", [](const OpStat& r) { return double(r.self_cpu_ns); }},
        {"cpu_total", [](const OpStat& r) { return double(r.cpu_total_ns); }},
        {"cpu_avg", [](const OpStat& r) { return r.avgCpuNs(); }},
        {"calls", [](const OpStat& r) { return double(r.calls); }},
        {"self_device", [](const OpStat& r) { return double(r.self_device_ns); }},
        {"device_total", [](const OpStat& r) { return double(r.device_total_ns); }},
        {"cpu_mem", [](const OpStat& r) { return double(r.cpu_mem_bytes); }},
        {"self_cpu_mem", [](const OpStat& r) { return double(r.self_cpu_mem_bytes); }},
        {"flops", [](const OpStat& r) { return r.flops; }},
        {"gflops_per_s", [](const OpStat& r) { return r.gflopsPerSec(); }},
        {"bytes", [](const OpStat& r) { return r.bytes; }},
    };
    return kKeys;
}

std::string printf1(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), format, value);
    return text;
}

size_t rowCount(const OpTable& t, size_t limit) {
    return limit == 0 ? t.rows.size() : std::min(limit, t.rows.size());
}

} // namespace

const std::vector<std::string>& opSortKeys() {
    static const std::vector<std::string> kKeys = [] {
        std::vector<std::string> keys;
        for (const auto& [key, getter] : sortGetters())
            keys.push_back(key);
        keys.push_back("name");
        return keys;
    }();
    return kKeys;
}

void sortOpTable(OpTable& table, const std::string& key) {
    auto& rows = table.rows;
    if (key == "name") {
        std::stable_sort(rows.begin(), rows.end(),
                         [](const OpStat& a, const OpStat& b) { return a.name < b.name; });
        return;
    }
    for (const auto& [name, get] : sortGetters()) {
        if (name != key) continue;
        std::stable_sort(rows.begin(), rows.end(), [&get = get](const OpStat& a, const OpStat& b) {
            return get(a) > get(b);
        });
        return;
    }
    std::string accepted;
    for (const std::string& k : opSortKeys())
        accepted += (accepted.empty() ? "" : ", ") + k;
    throw std::invalid_argument("Unknown sort key '" + key + "'; expected one of: " + accepted +
                                ".");
}

std::string formatDurationNs(double ns) {
    const double us = ns / 1000.0;
    if (std::abs(us) >= 1e6) return printf1("%.3fs", us / 1e6);
    if (std::abs(us) >= 1e3) return printf1("%.3fms", us / 1e3);
    return printf1("%.3fus", us);
}

std::string formatBytes(int64_t bytes) {
    const double b = static_cast<double>(bytes), a = std::abs(b);
    if (a >= 1024.0 * 1024 * 1024) return printf1("%.2f Gb", b / (1024.0 * 1024 * 1024));
    if (a >= 1024.0 * 1024) return printf1("%.2f Mb", b / (1024.0 * 1024));
    if (a >= 1024.0) return printf1("%.2f Kb", b / 1024.0);
    return std::to_string(bytes) + " b";
}

std::string formatOpTableCsv(const OpTable& table, size_t limit) {
    std::ostringstream out;
    out << "name,input_shapes,backward,calls,self_cpu_ns,self_cpu_pct,cpu_total_ns,cpu_total_pct,"
           "cpu_avg_ns,self_device_ns,device_total_ns,cpu_mem_bytes,self_cpu_mem_bytes,flops,"
           "bytes,gflop_per_s,arithmetic_intensity\n";
    const double total = double(table.total_self_cpu_ns);
    auto pct = [total](int64_t v) { return total > 0 ? 100.0 * double(v) / total : 0.0; };
    for (size_t i = 0; i < rowCount(table, limit); ++i) {
        const OpStat& r = table.rows[i];
        out << csvField(r.name) << ',' << csvField(r.shapes) << ',' << (r.backward ? 1 : 0) << ','
            << r.calls << ',' << r.self_cpu_ns << ',' << printf1("%.4f", pct(r.self_cpu_ns)) << ','
            << r.cpu_total_ns << ',' << printf1("%.4f", pct(r.cpu_total_ns)) << ','
            << printf1("%.1f", r.avgCpuNs()) << ',' << r.self_device_ns << ',' << r.device_total_ns
            << ',' << r.cpu_mem_bytes << ',' << r.self_cpu_mem_bytes << ','
            << printf1("%.0f", r.flops) << ',' << printf1("%.0f", r.bytes) << ','
            << printf1("%.4f", r.gflopsPerSec()) << ',' << printf1("%.4f", r.arithmeticIntensity())
            << '\n';
    }
    return out.str();
}

nlohmann::json opTableToJson(const OpTable& table, size_t limit) {
    nlohmann::json rows = nlohmann::json::array();
    for (size_t i = 0; i < rowCount(table, limit); ++i) {
        const OpStat& r = table.rows[i];
        rows.push_back({{"name", r.name},
                        {"input_shapes", r.shapes},
                        {"backward", r.backward},
                        {"calls", r.calls},
                        {"self_cpu_ns", r.self_cpu_ns},
                        {"cpu_total_ns", r.cpu_total_ns},
                        {"cpu_avg_ns", r.avgCpuNs()},
                        {"self_device_ns", r.self_device_ns},
                        {"device_total_ns", r.device_total_ns},
                        {"cpu_mem_bytes", r.cpu_mem_bytes},
                        {"self_cpu_mem_bytes", r.self_cpu_mem_bytes},
                        {"flops", r.flops},
                        {"bytes", r.bytes},
                        {"gflop_per_s", r.gflopsPerSec()},
                        {"arithmetic_intensity", r.arithmeticIntensity()}});
    }
    return {{"total_self_cpu_ns", table.total_self_cpu_ns},
            {"total_self_device_ns", table.total_self_device_ns},
            {"rows", std::move(rows)}};
}

} // namespace ts
