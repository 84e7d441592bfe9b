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

std::string percent(int64_t part, int64_t total) {
    return total > 0 ? printf1("%.2f%%", 100.0 * double(part) / double(total)) : "--";
}

std::string fit(const std::string& text, size_t width) {
    if (text.size() <= width) return text;
    return text.substr(0, width - 3) + "...";
}

struct Column {
    std::string header;
    std::function<std::string(const OpStat&)> cell;
    size_t max_width = 0; // 0: no cap
};

std::vector<Column> textColumns(const OpTable& t, size_t rows) {
    bool device = t.total_self_device_ns > 0, memory = false, shapes = false, flops = false;
    for (size_t i = 0; i < rows; ++i) {
        const OpStat& r = t.rows[i];
        device = device || r.device_total_ns > 0;
        memory = memory || r.cpu_mem_bytes != 0 || r.self_cpu_mem_bytes != 0;
        shapes = shapes || !r.shapes.empty();
        flops = flops || r.flops > 0;
    }
    const int64_t total = t.total_self_cpu_ns;
    std::vector<Column> c = {
        {"Name", [](const OpStat& r) { return r.name; }, 55},
        {"Self CPU %", [total](const OpStat& r) { return percent(r.self_cpu_ns, total); }},
        {"Self CPU", [](const OpStat& r) { return formatDurationNs(double(r.self_cpu_ns)); }},
        {"CPU total %", [total](const OpStat& r) { return percent(r.cpu_total_ns, total); }},
        {"CPU total", [](const OpStat& r) { return formatDurationNs(double(r.cpu_total_ns)); }},
        {"CPU time avg", [](const OpStat& r) { return formatDurationNs(r.avgCpuNs()); }},
    };
    if (device) {
        c.push_back({"Self CUDA",
                     [](const OpStat& r) { return formatDurationNs(double(r.self_device_ns)); }});
        c.push_back({"CUDA total",
                     [](const OpStat& r) { return formatDurationNs(double(r.device_total_ns)); }});
    }
    if (memory) {
        c.push_back({"CPU Mem", [](const OpStat& r) { return formatBytes(r.cpu_mem_bytes); }});
        c.push_back(
            {"Self CPU Mem", [](const OpStat& r) { return formatBytes(r.self_cpu_mem_bytes); }});
    }
    c.push_back({"# of Calls", [](const OpStat& r) { return std::to_string(r.calls); }});
    if (shapes) c.push_back({"Input Shapes", [](const OpStat& r) { return r.shapes; }, 80});
    if (flops) {
        c.push_back({"GFLOPs", [](const OpStat& r) {
                         return r.flops > 0 ? printf1("%.3f", r.flops / 1e9) : "--";
                     }});
        c.push_back({"GFLOP/s", [](const OpStat& r) {
                         return r.flops > 0 ? printf1("%.2f", r.gflopsPerSec()) : "--";
                     }});
    }
    return c;
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

std::string formatOpTableText(const OpTable& table, size_t limit) {
    const size_t n = rowCount(table, limit);
    const std::vector<Column> columns = textColumns(table, n);
    std::vector<std::vector<std::string>> cells(n);
    std::vector<size_t> width;
    for (const Column& c : columns)
        width.push_back(c.header.size());
    for (size_t r = 0; r < n; ++r) {
        for (size_t k = 0; k < columns.size(); ++k) {
            std::string text = columns[k].cell(table.rows[r]);
            if (columns[k].max_width) text = fit(text, columns[k].max_width);
            width[k] = std::max(width[k], text.size());
            cells[r].push_back(std::move(text));
        }
    }
    std::ostringstream out;
    auto rule = [&] {
        for (size_t k = 0; k < width.size(); ++k)
            out << std::string(width[k], '-') << "  ";
        out << '\n';
    };
    auto line = [&](const std::vector<std::string>& texts) {
        for (size_t k = 0; k < width.size(); ++k)
            out << std::string(width[k] - texts[k].size(), ' ') << texts[k] << "  ";
        out << '\n';
    };
    std::vector<std::string> headers;
    for (const Column& c : columns)
        headers.push_back(c.header);
    rule();
    line(headers);
    rule();
    for (const auto& row : cells)
        line(row);
    rule();
    out << "Self CPU time total: " << formatDurationNs(double(table.total_self_cpu_ns)) << '\n';
    if (table.total_self_device_ns > 0)
        out << "Self CUDA time total: " << formatDurationNs(double(table.total_self_device_ns))
            << '\n';
    return out.str();
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
