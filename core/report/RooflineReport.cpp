#include "report/RooflineReport.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "analysis/OpTableFormat.h"
#include "report/MarkdownTable.h"
#include "util/Csv.h"
#include "util/NumberText.h"

namespace ts {
namespace {

std::string shortName(std::string name, size_t max_chars) {
    if (name.rfind("aten::", 0) == 0) name = name.substr(6);
    if (name.size() > max_chars) name = name.substr(0, max_chars - 2) + "..";
    return name;
}

table::Cell rateCell(double gflops) {
    return std::isfinite(gflops) ? table::numberCell(fixed(gflops, 2), gflops) : table::Cell{};
}

table::Cell shareCell(double ratio) {
    return table::numberCell(percent(ratio), ratio);
}

std::vector<table::Column> rooflineColumns() {
    using table::Column;
    const auto n = table::ColumnKind::Number;
    namespace rc = roofline_column;
    return {
        Column{rc::kName, "Name", "Operator or kernel"},
        Column{"calls", "Calls", "Calls or kernel launches", table::ColumnKind::Integer},
        Column{rc::kTimeMs, "Time (ms)", "Self time (device time when there is any)", n, false,
               table::ColumnUnit::Milliseconds},
        Column{"time_share", "Time Share", "Share of the time of all placed operators", n},
        Column{"gflops", "GFLOPs", "Floating point operations (2 per multiply-add), 10^9", n},
        Column{"bytes", "Bytes", "Bytes moved to and from memory (estimate)", n, false,
               table::ColumnUnit::Bytes},
        Column{rc::kIntensity, "FLOP/byte", "Arithmetic intensity", n},
        Column{rc::kAchieved, "GFLOP/s", "Achieved: FLOPs over time", n},
        Column{rc::kRoof, "Roof GFLOP/s",
               "Attainable GFLOP/s at this intensity (low prec.: the reduced-precision roof)", n},
        Column{rc::kEfficiency, "Of Roof", "Achieved over attainable", n},
        Column{rc::kBound, "Bound", "Left of the ridge point: memory-bound; right: compute-bound"},
    };
}

} // namespace

const char* boundLabel(Bound bound) {
    return bound == Bound::Memory ? "memory-bound" : "compute-bound";
}

table::TableSpec rooflineTable(const std::vector<RooflinePoint>& points) {
    table::TableSpec spec;
    spec.title = "Roofline";
    spec.columns = rooflineColumns();
    for (const RooflinePoint& p : points) {
        table::Cell roof = rateCell(p.roof_gflops);
        if (p.cost.low_precision) roof.text += " (low prec.)";
        spec.rows.push_back(
            {table::textCell(p.cost.name), table::integerCell(p.cost.calls),
             table::numberCell(fixed(p.cost.time_ns / 1e6, 3), p.cost.time_ns / 1e6),
             shareCell(p.time_share),
             table::numberCell(fixed(p.cost.flops / 1e9, 3), p.cost.flops / 1e9),
             table::numberCell(formatBytes(int64_t(p.cost.bytes)), p.cost.bytes),
             table::numberCell(fixed(p.intensity, 2), p.intensity), rateCell(p.achieved_gflops),
             roof, shareCell(p.efficiency), table::textCell(boundLabel(p.bound))});
    }
    return spec;
}

std::string rooflineCsv(const Roofline& r) {
    std::ostringstream out;
    out << "name,calls,flops,bytes,time_ns,arithmetic_intensity,achieved_gflops,roof_gflops,"
           "efficiency,time_share,bound,roof\n";
    for (const auto& p : r.points) {
        out << csvField(p.cost.name) << ',' << p.cost.calls << ','
            << numberText("%.0f", p.cost.flops) << ',' << numberText("%.0f", p.cost.bytes) << ','
            << numberText("%.0f", p.cost.time_ns) << ',' << numberText("%.6g", p.intensity) << ','
            << numberText("%.6g", p.achieved_gflops) << ',' << numberText("%.6g", p.roof_gflops)
            << ',' << numberText("%.4f", p.efficiency) << ',' << numberText("%.4f", p.time_share)
            << ',' << toString(p.bound) << ','
            << (p.cost.low_precision ? r.peaks.low_precision : std::string("fp32")) << '\n';
    }
    return out.str();
}

chart::XyChart rooflineChart(const Roofline& r, const std::string& title, size_t labelled) {
    const MachinePeaks& pk = r.peaks;
    const bool low = pk.low_gflops > 0;
    double lo = pk.ridge() / 10, hi = pk.ridge() * 10;
    if (low) {
        lo = std::min(lo, pk.ridge(true) / 10);
        hi = std::max(hi, pk.ridge(true) * 10);
    }
    for (const auto& p : r.points) {
        lo = std::min(lo, p.intensity / 2);
        hi = std::max(hi, p.intensity * 2);
    }
    auto roof = [&](bool low_roof, const std::string& name, chart::Color color) {
        const double ridge = pk.ridge(low_roof), top = pk.computeRoof(low_roof);
        chart::XySeries s;
        s.name = name;
        s.xs = {lo, ridge, hi};
        s.ys = {pk.bandwidth_gbs * lo, top, top};
        s.color = color;
        s.markers = false;
        s.dashed = low_roof;
        return s;
    };
    chart::XyChart c;
    c.title = title;
    c.x_label = "arithmetic intensity (FLOP/byte)";
    c.y_label = "GFLOP/s";
    c.log_x = c.log_y = true;
    // The reduced-precision roof first: the fp32 one, drawn over it, keeps the
    // shared bandwidth slope in its colour.
    if (low)
        c.series.push_back(roof(
            true, pk.low_precision + " roof: " + numberText("%.4g", pk.low_gflops) + " GFLOP/s",
            {230, 140, 40}));
    c.series.push_back(roof(false,
                            "fp32 roof: " + numberText("%.4g", pk.fp32_gflops) + " GFLOP/s, " +
                                numberText("%.4g", pk.bandwidth_gbs) + " GB/s",
                            {200, 40, 40}));
    chart::XySeries ridge;
    ridge.name = "ridge: " + numberText("%.3g", pk.ridge()) + " FLOP/byte";
    ridge.xs = {pk.ridge()};
    ridge.ys = {pk.fp32_gflops};
    ridge.color = {80, 80, 80};
    ridge.line = false;
    c.series.push_back(ridge);
    chart::XySeries memory, compute;
    memory.name = "memory-bound";
    memory.color = chart::paletteColor(0);
    compute.name = "compute-bound";
    compute.color = chart::paletteColor(4);
    for (size_t i = 0; i < r.points.size(); ++i) {
        const auto& p = r.points[i];
        auto& series = p.bound == Bound::Memory ? memory : compute;
        series.xs.push_back(p.intensity);
        series.ys.push_back(p.achieved_gflops);
        series.point_labels.push_back(i < labelled ? shortName(p.cost.name, 18) : "");
        series.marker_sizes.push_back(rooflineMarkerSize(p));
    }
    memory.line = compute.line = false;
    c.series.push_back(memory);
    c.series.push_back(compute);
    return c;
}

double rooflineMarkerSize(const RooflinePoint& point) {
    // Area grows with the share of the time, so the costly operators stand out.
    return 6.0 + 22.0 * std::sqrt(std::max(0.0, point.time_share));
}

std::string rooflineText(const Roofline& r, size_t limit) {
    std::ostringstream out;
    const auto& pk = r.peaks;
    out << "peaks (" << pk.source << ", " << pk.device << "): fp32 " << fixed(pk.fp32_gflops, 1)
        << " GFLOP/s";
    if (pk.low_gflops > 0)
        out << ", " << pk.low_precision << " " << fixed(pk.low_gflops, 1) << " GFLOP/s";
    out << ", memory " << fixed(pk.bandwidth_gbs, 1) << " GB/s; ridge at " << fixed(pk.ridge(), 2)
        << " FLOP/byte";
    if (pk.low_gflops > 0)
        out << " (" << pk.low_precision << ": " << fixed(pk.ridge(true), 2) << ")";
    out << "\n";
    for (const auto& note : pk.notes)
        out << "note: " << note << "\n";
    table::TableSpec shown = table::firstRows(rooflineTable(r.points), limit);
    for (std::vector<table::Cell>& row : shown.rows)
        row[0].text = shortName(row[0].text, 40);
    out << table::toText(shown);
    size_t memory = 0;
    for (const auto& p : r.points)
        memory += p.bound == Bound::Memory;
    out << memory << " of " << r.points.size() << " placed operators are memory-bound, "
        << r.points.size() - memory << " compute-bound\n";
    const auto above = std::count_if(r.points.begin(), r.points.end(),
                                     [](const RooflinePoint& p) { return p.efficiency > 1; });
    if (above > 0)
        out << "note: " << above << " operator(s) run above their roof: their data stays in "
            << "cache, which the memory-bandwidth roof does not model (or the peaks are low)\n";
    for (const auto& note : r.notes)
        out << "note: " << note << "\n";
    return out.str();
}

} // namespace ts
