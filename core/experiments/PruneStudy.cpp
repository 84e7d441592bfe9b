#include "experiments/PruneStudy.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "experiments/StudyTables.h"
#include "report/ChartRenderer.h"
#include "report/MarkdownTable.h"
#include "util/AtomicFile.h"
#include "util/Csv.h"

namespace ts {
namespace {

std::string methodText(const PruneOptions& p) {
    std::ostringstream out;
    out << (p.structured ? "structured (L" + std::to_string(p.norm) + " norm of output channels)"
                         : std::string("L1 unstructured"))
        << ", " << (p.global ? "global" : "per layer") << ", amount " << p.amount << ", "
        << (p.include_linear ? "conv + linear weights" : "conv weights");
    return out.str();
}

double share(int64_t zeros, int64_t params) {
    return params ? double(zeros) / double(params) : 0;
}

// The text table's last line: the sums over the pruned layers.
std::vector<table::Cell> totalRow(const PruneStudyResult& r) {
    const double before = share(r.zerosBefore(), r.params());
    const double after = share(r.zerosAfter(), r.params());
    return {table::textCell("total"),
            table::textCell(""),
            table::integerCell(r.params()),
            table::integerCell(r.zerosBefore()),
            table::integerCell(r.zerosAfter()),
            table::numberCell(percent(before), before),
            table::numberCell(percent(after), after),
            table::textCell("")};
}

} // namespace

int64_t PruneStudyResult::params() const {
    int64_t n = 0;
    for (const auto& l : layers)
        n += l.params;
    return n;
}

int64_t PruneStudyResult::zerosBefore() const {
    int64_t n = 0;
    for (const auto& l : layers)
        n += l.zeros_before;
    return n;
}

int64_t PruneStudyResult::zerosAfter() const {
    int64_t n = 0;
    for (const auto& l : layers)
        n += l.zeros_after;
    return n;
}

std::string pruneText(const PruneStudyResult& r) {
    std::ostringstream out;
    out << "pruning: " << methodText(r.prune) << "\n" << r.weights_report << "\n";
    table::TableSpec layers = pruneLayerTableSpec(r.layers);
    layers.rows.push_back(totalRow(r));
    out << table::toText(layers);
    out << "accuracy: " << percent(r.before.accuracy, 2) << " before, "
        << percent(r.after.accuracy, 2) << " after (" << r.after.samples << " test images)\n"
        << "latency (batch " << r.latency_batch << ", median of " << r.latency_runs
        << " forward passes): " << fixed(r.latency_before_ms, 2) << " ms before, "
        << fixed(r.latency_after_ms, 2) << " ms after\n"
        << r.verdict << "\n"
        << "pruned weights: " << r.pruned_weights.string() << "\n";
    return out.str();
}

chart::BarChart pruneSparsityChart(const PruneStudyResult& r) {
    chart::BarChart c;
    c.title = (r.model.empty() ? "" : r.model + ": ") + "sparsity per layer";
    c.y_label = "zero weights (%)";
    c.value_labels = false; // dozens of layers: the axis says enough
    chart::BarSeries before{"before pruning", {}, chart::kNeutralColor, {}, {}};
    chart::BarSeries after{"after pruning", {}, chart::paletteColor(4), {}, {}};
    for (const auto& l : r.layers) {
        std::string name = l.name;
        if (name.size() > 7 && name.compare(name.size() - 7, 7, ".weight") == 0)
            name.resize(name.size() - 7);
        c.categories.push_back(name);
        before.values.push_back(100 * l.sparsityBefore());
        after.values.push_back(100 * l.sparsityAfter());
    }
    // Weights that were dense before: no grey bars, the coloured ones alone.
    if (r.zerosBefore() > 0) c.series.push_back(before);
    c.series.push_back(after);
    if (r.params() > 0) {
        const double overall = 100.0 * double(r.zerosAfter()) / double(r.params());
        c.lines.push_back({"overall after pruning: " + fixed(overall, 1) + " %", overall,
                           chart::paletteColor(0)});
    }
    return c;
}

void writePruneReport(const PruneStudyResult& r, const std::filesystem::path& dir) {
    std::ostringstream csv;
    csv << "layer,shape,params,zeros_before,zeros_after,sparsity_before,sparsity_after,channels,"
           "channels_zeroed\n";
    for (const auto& l : r.layers)
        csv << csvField(l.name) << ',' << tensorShapeText(l.shape) << ',' << l.params << ','
            << l.zeros_before << ',' << l.zeros_after << ',' << l.sparsityBefore() << ','
            << l.sparsityAfter() << ',' << l.channels << ',' << l.channels_zeroed << '\n';
    writeFileAtomically(dir / prune_files::kLayersCsv, csv.str());
    nlohmann::json j = {{"method", methodText(r.prune)},
                        {"amount", r.prune.amount},
                        {"structured", r.prune.structured},
                        {"global", r.prune.global},
                        {"norm", r.prune.norm},
                        {"include_linear", r.prune.include_linear},
                        {"model", r.model},
                        {"device", r.device},
                        {"weights", r.weights},
                        {"pruned_weights", r.pruned_weights.string()},
                        {"params", r.params()},
                        {"zeros_before", r.zerosBefore()},
                        {"zeros_after", r.zerosAfter()},
                        {"accuracy_before", r.before.accuracy},
                        {"accuracy_after", r.after.accuracy},
                        {"loss_before", r.before.loss},
                        {"loss_after", r.after.loss},
                        {"eval_samples", r.after.samples},
                        {"latency_batch", r.latency_batch},
                        {"latency_runs", r.latency_runs},
                        {"latency_before_ms", r.latency_before_ms},
                        {"latency_after_ms", r.latency_after_ms},
                        {"latency_before_spread_ms", r.latency_before_spread_ms},
                        {"latency_after_spread_ms", r.latency_after_spread_ms},
                        {"verdict", r.verdict}};
    writeFileAtomically(dir / prune_files::kJson, j.dump(2) + "\n");
    std::ostringstream md;
    md << "# Pruning " << r.model << "\n\n"
       << "Method: " << methodText(r.prune) << ". Weights: `" << r.weights << "` ("
       << r.weights_report << ").\n\n"
       << markdownTable({"", "before", "after"},
                        {{"sparsity of pruned layers",
                          percent(r.params() ? double(r.zerosBefore()) / r.params() : 0),
                          percent(r.params() ? double(r.zerosAfter()) / r.params() : 0)},
                         {"accuracy (" + std::to_string(r.after.samples) + " test images)",
                          percent(r.before.accuracy, 2), percent(r.after.accuracy, 2)},
                         {"latency, batch " + std::to_string(r.latency_batch) + " (ms)",
                          fixed(r.latency_before_ms, 2), fixed(r.latency_after_ms, 2)}},
                        {"before", "after"})
       << "\n"
       << r.verdict << "\n\nPer-layer sparsity: `" << prune_files::kLayersCsv
       << "`. Pruned weights: `" << prune_files::kWeights
       << "` (load with `--set pretrained=...` or `evaluate --weights`).\n\n"
       << chartMarkdown("sparsity per layer", prune_files::kSparsityPng) << "\n";
    writeFileAtomically(dir / prune_files::kMarkdown, md.str());
    writeChart(pruneSparsityChart(r), dir / prune_files::kSparsityPng);
}

} // namespace ts
