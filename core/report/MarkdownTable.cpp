#include "report/MarkdownTable.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ts {
namespace {

std::string escapeCell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += "<br>";
        else
            out += c;
    }
    return out;
}

bool looksNumeric(const std::string& cell) {
    if (cell.empty()) return false;
    const unsigned char c = static_cast<unsigned char>(cell[0]);
    return std::isdigit(c) || ((c == '-' || c == '+' || c == '.') && cell.size() > 1);
}

std::string printfDouble(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), format, value);
    return text;
}

} // namespace

std::string markdownTable(const std::vector<std::string>& headers, const TableRows& rows,
                          const std::vector<std::string>& right_aligned) {
    std::ostringstream out;
    out << '|';
    for (const auto& h : headers)
        out << ' ' << escapeCell(h) << " |";
    out << "\n|";
    for (const auto& h : headers) {
        const bool right =
            std::find(right_aligned.begin(), right_aligned.end(), h) != right_aligned.end();
        out << (right ? " ---: |" : " --- |");
    }
    out << '\n';
    for (const auto& row : rows) {
        out << '|';
        for (size_t i = 0; i < headers.size(); ++i)
            out << ' ' << (i < row.size() ? escapeCell(row[i]) : std::string()) << " |";
        out << '\n';
    }
    return out.str();
}

std::string plainTable(const std::vector<std::string>& headers, const TableRows& rows) {
    std::vector<size_t> width(headers.size());
    for (size_t i = 0; i < headers.size(); ++i)
        width[i] = headers[i].size();
    for (const auto& row : rows)
        for (size_t i = 0; i < headers.size() && i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    std::ostringstream out;
    auto line = [&](const std::vector<std::string>& cells, bool header) {
        std::string text;
        for (size_t i = 0; i < headers.size(); ++i) {
            const std::string cell = i < cells.size() ? cells[i] : std::string();
            const std::string pad(width[i] - cell.size(), ' ');
            text += (!header && looksNumeric(cell)) ? pad + cell : cell + pad;
            if (i + 1 < headers.size()) text += "  ";
        }
        text.erase(text.find_last_not_of(' ') + 1);
        out << text << '\n';
    };
    line(headers, true);
    size_t total = 0;
    for (size_t w : width)
        total += w + 2;
    out << std::string(total > 2 ? total - 2 : total, '-') << '\n';
    for (const auto& row : rows)
        line(row, false);
    return out.str();
}

std::string fixed(double value, int digits) {
    if (std::isnan(value)) return "-";
    const std::string format = "%." + std::to_string(std::clamp(digits, 0, 9)) + "f";
    return printfDouble(format.c_str(), value);
}

std::string mib(int64_t bytes) {
    return bytes > 0 ? printfDouble("%.1f", double(bytes) / (1024.0 * 1024.0)) : "-";
}

std::string percent(double fraction, int digits) {
    return std::isnan(fraction) ? "-" : fixed(fraction * 100.0, digits) + "%";
}

std::string speedup(double ratio) {
    return std::isnan(ratio) || ratio <= 0 ? "-" : printfDouble("%.2fx", ratio);
}

} // namespace ts
