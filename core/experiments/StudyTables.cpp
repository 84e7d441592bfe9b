#include "experiments/StudyTables.h"

#include <cmath>

#include "experiments/SweepScaling.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using table::Cell;
using table::Column;
using table::ColumnKind;

Column number(const char* key, const char* title, const char* tooltip,
              table::ColumnUnit unit = table::ColumnUnit::None) {
    return Column{key, title, tooltip, ColumnKind::Number, false, unit};
}

// "-" and no value where nothing was measured, as the CLI always printed.
Cell orDash(bool known, std::string text, double value) {
    return known ? table::numberCell(std::move(text), value) : table::textCell("-");
}

Cell msCell(bool known, double ms) {
    return orDash(known, fixed(ms, 2), ms);
}

// Bytes behind a MiB text, so that the GUI shows them in its own units.
Cell mibCell(int64_t bytes) {
    return orDash(bytes > 0, mib(bytes), double(bytes));
}

Column mibColumn(const char* key, const char* title, const char* tooltip) {
    return Column{key, title, tooltip, ColumnKind::Integer, false, table::ColumnUnit::Bytes};
}

Column stepColumn() {
    return number("median_step_ms", "step ms", "Median step time", table::ColumnUnit::Milliseconds);
}

Column memoryColumn() {
    return mibColumn("memory_bytes", "memory MiB",
                     "What the point needed above the idle process: peak device allocation on "
                     "CUDA, resident-set growth on the host");
}

Column statusColumn() {
    return Column{"status", "status", "How the run ended"};
}

} // namespace

std::string outcomeText(const PointResult& r) {
    if (r.outcome == PointOutcome::Skipped && r.message.find("cancelled") != std::string::npos)
        return "cancelled";
    if (r.outcome == PointOutcome::Failed && r.message.rfind("cancelled", 0) == 0) return "stopped";
    return toString(r.outcome);
}

std::string toMarkdown(const table::TableSpec& t) {
    std::vector<std::string> titles, right;
    for (const Column& c : t.columns) {
        titles.push_back(c.title);
        if (c.numeric()) right.push_back(c.title);
    }
    TableRows rows;
    for (const auto& row : t.rows) {
        std::vector<std::string> texts;
        for (const Cell& cell : row)
            texts.push_back(cell.text);
        rows.push_back(std::move(texts));
    }
    return markdownTable(titles, rows, right);
}

namespace {

// The sweep the rows came from, as far as its table needs it: the swept keys
// (for the processes axis of scalingFigures) and every row (for baselines).
SweepResult sweepOf(const std::vector<SweepRow>& rows) {
    SweepResult r;
    if (!rows.empty())
        for (const auto& kv : rows.front().point.values)
            r.spec.axes.push_back(SweepAxis{kv.first, {}});
    r.rows = rows;
    return r;
}

std::vector<Column> sweepColumns(const SweepResult& r) {
    std::vector<Column> c = {Column{sweep_column::kPoint, "point",
                                    "Run order (the point_<i> directory)", ColumnKind::Integer}};
    for (const auto& axis : r.spec.axes)
        c.push_back(Column{axis.key, axis.key, "The value of the swept key " + axis.key});
    c.push_back(statusColumn());
    c.push_back(number(sweep_column::kImagesPerSec, "images/s",
                       "Median images per second, warm-up excluded: the geometric mean over the "
                       "point's rounds"));
    c.push_back(number("images_per_sec_interval", "interval",
                       "The interval of images/s over the rounds (sorted by its low end)"));
    c.push_back(number("gain_vs_best", "vs best",
                       "Gain against the fastest point, paired by round, with its interval; "
                       "\"within noise\" where the interval holds 0"));
    c.push_back(stepColumn());
    c.push_back(number("data_ms", "data ms", "Median time waiting for the batch",
                       table::ColumnUnit::Milliseconds));
    c.push_back(memoryColumn());
    c.push_back(mibColumn(sweep_column::kPredicted, "predicted MiB",
                          "Memory the guard predicted from the smaller points before running "
                          "this one"));
    c.push_back(Column{"steps", "steps", "Measured steps completed", ColumnKind::Integer});
    if (processesAxis(r.spec) >= 0) {
        c.push_back(number("speedup", "speedup", "images/s over the fewest processes'"));
        c.push_back(number("scaling_efficiency", "efficiency", "Speedup per added process"));
        c.push_back(number("allreduce_ms_per_step", "allreduce ms",
                           "Milliseconds per step that allreduces were in flight"));
        c.push_back(number("overlap_pct", "overlap", "Share of allreduce time hidden by backward"));
    }
    c.push_back(Column{"message", "note", "Error, out-of-memory text or why it was skipped"});
    return c;
}

Cell versusBest(const SweepRow& row) {
    if (row.best) return table::numberCell("best", 0);
    if (!row.vs_best.hasInterval()) return table::textCell("-");
    return table::numberCell(formatGain(row.vs_best) +
                                 (row.vs_best.withinNoise() ? " within noise" : ""),
                             row.vs_best.gain);
}

Cell levelRange(const LevelInterval& l) {
    return orDash(l.confidence > 0, fixed(l.low, 1) + " \u2026 " + fixed(l.high, 1), l.low);
}

// Speedup, efficiency, allreduce ms per step and overlap of a point of a
// sweep over processes ("-" where not measured).
std::vector<Cell> scalingCells(const SweepResult& r, const SweepRow& row) {
    const ScalingFigures f = scalingFigures(r, row);
    const auto cell = [](double v, std::string text, double value) {
        return orDash(!std::isnan(v), std::move(text), value);
    };
    return {cell(f.speedup, fixed(f.speedup, 2) + "x", f.speedup),
            cell(f.efficiency, fixed(f.efficiency * 100, 0) + "%", f.efficiency),
            cell(row.allreduce_ms, fixed(row.allreduce_ms, 1), row.allreduce_ms),
            cell(row.overlap_pct, fixed(row.overlap_pct, 0) + "%", row.overlap_pct)};
}

std::vector<Cell> sweepCells(const SweepResult& r, const SweepRow& row) {
    const auto& s = row.result.summary;
    const bool ran = row.result.outcome != PointOutcome::Skipped;
    const bool measured = ran && s.steps_completed > 0;
    std::vector<Cell> cells = {table::integerCell(int64_t(row.point.index))};
    for (const auto& kv : row.point.values)
        cells.push_back(table::textCell(kv.second));
    cells.push_back(table::textCell(outcomeText(row.result)));
    cells.push_back(orDash(measured, fixed(row.imagesPerSec(), 1), row.imagesPerSec()));
    cells.push_back(measured ? levelRange(row.level) : table::textCell("-"));
    cells.push_back(measured ? versusBest(row) : table::textCell("-"));
    cells.push_back(msCell(measured, s.median_step_ms));
    cells.push_back(msCell(measured, s.median_phases.data_ms));
    cells.push_back(mibCell(row.result.memory_bytes));
    cells.push_back(mibCell(row.predicted_bytes));
    cells.push_back(ran ? table::integerCell(s.steps_completed) : table::textCell("-"));
    if (processesAxis(r.spec) >= 0)
        for (Cell& cell : scalingCells(r, row))
            cells.push_back(std::move(cell));
    cells.push_back(table::textCell(row.result.message));
    return cells;
}

} // namespace

table::TableSpec sweepTableSpec(const std::vector<SweepRow>& rows) {
    const SweepResult r = sweepOf(rows);
    table::TableSpec spec;
    spec.title = "Sweep points";
    spec.columns = sweepColumns(r);
    for (const SweepRow& row : r.rows)
        spec.rows.push_back(sweepCells(r, row));
    return spec;
}

namespace {

std::vector<Column> ladderColumns() {
    return {
        Column{ladder_column::kRung, "rung", "The optimization tried"},
        Column{"change", "change", "Config change on top of the best so far"},
        statusColumn(),
        number(ladder_column::kImagesPerSec, "images/s",
               "Median images per second, warm-up excluded: the geometric mean over the rung's "
               "rounds"),
        number("gain", "gain (interval)",
               "Over the best so far: geometric mean of the rounds' ratios and its confidence "
               "interval; kept only when the whole interval clears the margin"),
        number(ladder_column::kSpeedup, "speed-up", "images/s over the baseline's"),
        stepColumn(),
        memoryColumn(),
        number("accuracy", "accuracy", "Validation accuracy after the same number of steps"),
        Column{ladder_column::kKept, "kept", "Kept when it beat the best so far by the margin",
               ColumnKind::YesNo},
        Column{ladder_column::kDecision, "decision", "Why it was kept, dropped or skipped"},
    };
}

Cell gainCell(const RungRow& row) {
    return orDash(row.id != "baseline" && row.interval.rounds > 0, formatGain(row.interval),
                  row.interval.gain);
}

std::vector<Cell> ladderCells(const RungRow& row) {
    const auto& s = row.result.summary;
    const bool measured = row.ran && s.steps_completed > 0;
    const double accuracy = row.result.accuracy();
    return {table::textCell(row.title),
            table::textCell(row.change.empty() ? "-" : row.change),
            table::textCell(outcomeText(row.result)),
            orDash(measured, fixed(row.imagesPerSec(), 1), row.imagesPerSec()),
            measured ? gainCell(row) : table::textCell("-"),
            orDash(measured && row.speedup > 0, speedup(row.speedup), row.speedup),
            msCell(measured, s.median_step_ms),
            mibCell(row.result.memory_bytes),
            orDash(measured && !std::isnan(accuracy), percent(accuracy), accuracy),
            Cell{row.kept ? "yes" : "no", row.kept ? 1.0 : 0.0},
            table::textCell(row.ran ? row.decision : row.skip_reason)};
}

} // namespace

table::TableSpec ladderTableSpec(const std::vector<RungRow>& rows) {
    table::TableSpec spec;
    spec.title = "Ladder rungs";
    spec.columns = ladderColumns();
    for (const RungRow& row : rows)
        spec.rows.push_back(ladderCells(row));
    return spec;
}

std::string tensorShapeText(const std::vector<int64_t>& shape) {
    std::string out;
    for (auto d : shape)
        out += (out.empty() ? "" : "x") + std::to_string(d);
    return out;
}

namespace {

Cell shareCell(double fraction) {
    return table::numberCell(percent(fraction), fraction);
}

} // namespace

table::TableSpec pruneLayerTableSpec(const std::vector<LayerSparsity>& layers) {
    const auto count = [](const char* key, const char* title, const char* tooltip) {
        return Column{key, title, tooltip, ColumnKind::Integer};
    };
    table::TableSpec spec;
    spec.title = "Pruned layers";
    spec.columns = {
        Column{prune_column::kLayer, "layer", "The pruned weight tensor"},
        Column{"shape", "shape", "Output channels x input channels x kernel"},
        count(prune_column::kParams, "weights", "Weights in the tensor"),
        count("zeros_before", "zeros before", "Weights that were already zero"),
        count(prune_column::kZerosAfter, "zeros after", "Weights that are zero after pruning"),
        number("sparsity_before", "sparsity before", "Share of zero weights before pruning"),
        number(prune_column::kSparsityAfter, "sparsity after",
               "Share of zero weights after pruning"),
        count("channels_zeroed", "zero channels",
              "Output channels that are entirely zero after pruning (of all)"),
    };
    for (const LayerSparsity& l : layers)
        spec.rows.push_back(
            {table::textCell(l.name), table::textCell(tensorShapeText(l.shape)),
             table::integerCell(l.params), table::integerCell(l.zeros_before),
             table::integerCell(l.zeros_after), shareCell(l.sparsityBefore()),
             shareCell(l.sparsityAfter()),
             table::numberCell(std::to_string(l.channels_zeroed) + "/" + std::to_string(l.channels),
                               double(l.channels_zeroed))});
    return spec;
}

} // namespace ts
