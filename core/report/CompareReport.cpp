// report.md of `trainscope-cli compare` (the other outputs: CompareRuns.cpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/OpTableFormat.h"
#include "config/ConfigJson.h"
#include "report/ChartRenderer.h"
#include "report/CompareNoise.h"
#include "report/CompareRuns.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using Metric = std::function<double(const ComparedRun&)>;

struct MetricRow {
    std::string name;
    Metric value;
    int digits;
    // The per-step figure behind it, for an interval; none for run-level figures.
    std::optional<StepMetric> steps = std::nullopt;
};

const std::vector<MetricRow>& metricRows() {
    auto summary = [](auto get) {
        return [get](const ComparedRun& r) { return get(r.record.summary); };
    };
    auto mibOf = [](int64_t b) { return b > 0 ? double(b) / (1024.0 * 1024.0) : NAN; };
    static const std::vector<MetricRow> kRows = {
        {"throughput (images/s)",
         summary([](const RunSummary& s) { return s.median_images_per_sec; }), 1,
         StepMetric::ImagesPerSec},
        {"step (ms, median)", summary([](const RunSummary& s) { return s.median_step_ms; }), 2,
         StepMetric::StepMs},
        {"  data wait (ms)", summary([](const RunSummary& s) { return s.median_phases.data_ms; }),
         2, StepMetric::DataMs},
        {"  host-to-device copy (ms)",
         summary([](const RunSummary& s) { return s.median_phases.copy_ms; }), 2,
         StepMetric::CopyMs},
        {"  forward (ms)", summary([](const RunSummary& s) { return s.median_phases.forward_ms; }),
         2, StepMetric::ForwardMs},
        {"  backward (ms)",
         summary([](const RunSummary& s) { return s.median_phases.backward_ms; }), 2,
         StepMetric::BackwardMs},
        {"  optimizer (ms)",
         summary([](const RunSummary& s) { return s.median_phases.optimizer_ms; }), 2,
         StepMetric::OptimizerMs},
        {"epoch time (s, training)",
         summary([](const RunSummary& s) { return s.mean_epoch_time_s; }), 2},
        {"peak host RSS (MiB)",
         summary([mibOf](const RunSummary& s) { return mibOf(s.peak_rss_bytes); }), 1},
        {"page faults per step (median)",
         summary([](const RunSummary& s) { return s.median_page_faults; }), 0},
        {"peak device memory (MiB)",
         summary([mibOf](const RunSummary& s) { return mibOf(s.peak_device_bytes); }), 1},
        {"peak CPU tensors (MiB)",
         summary([mibOf](const RunSummary& s) { return mibOf(s.peak_tensor_bytes); }), 1},
        {"final train loss", summary([](const RunSummary& s) { return s.final_train_loss; }), 4},
        {"accuracy (%)", [](const ComparedRun& r) { return r.accuracy() * 100; }, 2},
        {"steps", summary([](const RunSummary& s) { return double(s.steps_completed); }), 0},
    };
    return kRows;
}

// "812.3 (+52.1%)" relative to the baseline's value.
std::string cellWithChange(double value, double base, int digits) {
    if (std::isnan(value)) return "-";
    std::string cell = fixed(value, digits);
    // No percentage between values that print the same (noise on ~0 figures).
    if (!std::isnan(base) && base != 0 && cell != fixed(base, digits)) {
        char change[32];
        std::snprintf(change, sizeof(change), " (%+.1f%%)", (value / base - 1) * 100);
        cell += change;
    }
    return cell;
}

// "812.3 (+52.1%, 95%: +48.0 … +56.3%)" or "(-10.3%, within noise: -25.1 … +6.0%)".
std::string cellWithInterval(double value, const GainInterval& change, int digits) {
    if (std::isnan(value)) return "-";
    if (!change.hasInterval()) return fixed(value, digits);
    char text[128];
    std::snprintf(text, sizeof(text), " (%+.1f%%, %s: %+.1f \u2026 %+.1f%%)", change.gain * 100,
                  change.withinNoise() ? "within noise" : "interval", change.low * 100,
                  change.high * 100);
    return fixed(value, digits) + text;
}

std::string metricsTable(const std::vector<ComparedRun>& runs) {
    const RunToRunNoise noise = runToRunNoise(runs);
    std::vector<std::string> headers = {"metric"};
    for (size_t i = 0; i < runs.size(); ++i)
        headers.push_back(runs[i].label + (i == 0 ? " (baseline)" : ""));
    TableRows rows;
    for (const auto& m : metricRows()) {
        const bool measured = std::any_of(runs.begin(), runs.end(), [&](const ComparedRun& r) {
            return !std::isnan(m.value(r));
        });
        if (!measured) continue; // e.g. device memory of CPU runs
        std::vector<std::string> row = {m.name};
        const double base = m.value(runs[0]);
        for (size_t i = 0; i < runs.size(); ++i) {
            if (i == 0) {
                row.push_back(std::isnan(base) ? "-" : fixed(base, m.digits));
                continue;
            }
            const GainInterval change =
                m.steps ? changeAgainst(runs[0], runs[i], *m.steps, noise) : GainInterval{};
            row.push_back(change.hasInterval()
                              ? cellWithInterval(m.value(runs[i]), change, m.digits)
                              : cellWithChange(m.value(runs[i]), base, m.digits));
        }
        rows.push_back(std::move(row));
    }
    std::vector<std::string> right(headers.begin() + 1, headers.end());
    return markdownTable(headers, rows, right);
}

std::string configDifferences(const std::vector<ComparedRun>& runs) {
    std::vector<nlohmann::json> configs;
    for (const auto& r : runs)
        configs.push_back(configToJson(r.record.info.config));
    std::vector<std::string> headers = {"key"};
    for (const auto& r : runs)
        headers.push_back(r.label);
    TableRows rows;
    for (const auto& key : configKeys()) {
        const auto dot = key.find('.');
        auto at = [&](const nlohmann::json& j) {
            const auto ptr = nlohmann::json::json_pointer(
                "/" +
                (dot == std::string::npos ? key : key.substr(0, dot) + "/" + key.substr(dot + 1)));
            return j.contains(ptr) ? j.at(ptr).dump() : std::string("-");
        };
        std::set<std::string> values;
        std::vector<std::string> row = {key};
        for (const auto& j : configs) {
            row.push_back(at(j));
            values.insert(row.back());
        }
        if (values.size() > 1 && key != "name") rows.push_back(std::move(row));
    }
    if (rows.empty()) return "The runs use the same configuration (apart from their names).\n";
    return markdownTable(headers, rows);
}

std::string topOperators(const ComparedRun& r, size_t limit) {
    if (!r.ops || r.ops->rows.empty())
        return "Not profiled (no ops.csv or operator table in run.json).\n";
    const OpTable& t = *r.ops;
    TableRows rows;
    for (size_t i = 0; i < t.rows.size() && i < limit; ++i) {
        const auto& op = t.rows[i];
        rows.push_back(
            {op.name, std::to_string(op.calls), fixed(double(op.self_cpu_ns) / 1e6, 3),
             percent(t.total_self_cpu_ns > 0 ? double(op.self_cpu_ns) / double(t.total_self_cpu_ns)
                                             : NAN),
             op.self_device_ns > 0 ? fixed(double(op.self_device_ns) / 1e6, 3) : "-",
             op.flops > 0 ? fixed(op.gflopsPerSec(), 2) : "-"});
    }
    return "Over " + std::to_string(r.profiled_steps) + " profiled steps; self CPU total " +
           formatDurationNs(double(t.total_self_cpu_ns)) + ".\n\n" +
           markdownTable(
               {"operator", "calls", "self CPU ms", "self CPU %", "self device ms", "GFLOP/s"},
               rows, {"calls", "self CPU ms", "self CPU %", "self device ms", "GFLOP/s"});
}

std::string adviceList(const ComparedRun& r) {
    if (r.advice.empty()) return "No rule fired: nothing obvious left on the table.\n";
    std::string out;
    for (const auto& a : r.advice)
        out +=
            "- **" + std::string(toString(a.severity)) + "** `" + a.rule + "`: " + a.message + "\n";
    return out;
}

std::string environments(const std::vector<ComparedRun>& runs) {
    using Field = std::function<std::string(const EnvironmentInfo&)>;
    const std::vector<std::pair<std::string, Field>> fields = {
        {"host", [](const EnvironmentInfo& e) { return e.hostname; }},
        {"OS", [](const EnvironmentInfo& e) { return e.os; }},
        {"CPU", [](const EnvironmentInfo& e) { return e.cpu_model; }},
        {"logical cores", [](const EnvironmentInfo& e) { return std::to_string(e.logical_cores); }},
        {"intra-op threads",
         [](const EnvironmentInfo& e) { return std::to_string(e.intra_op_threads); }},
        {"CPU features",
         [](const EnvironmentInfo& e) {
             std::string s;
             for (const auto& f : e.cpu_features)
                 s += (s.empty() ? "" : " ") + f;
             return s;
         }},
        {"BLAS", [](const EnvironmentInfo& e) { return e.blas; }},
        {"oneDNN",
         [](const EnvironmentInfo& e) {
             return e.onednn ? "yes " + e.onednn_version : std::string("no");
         }},
        {"LibTorch", [](const EnvironmentInfo& e) { return e.torch_version; }},
        {"CUDA",
         [](const EnvironmentInfo& e) {
             if (!e.cuda_available) return std::string("not available");
             std::string s = e.cuda_version + ", cuDNN " + e.cudnn_version;
             for (const auto& d : e.cuda_devices)
                 s += "; " + d.name;
             return s;
         }},
        {"Trainscope", [](const EnvironmentInfo& e) { return e.trainscope_version; }},
    };
    std::vector<std::string> headers = {
        "",
    };
    for (const auto& r : runs)
        headers.push_back(r.label);
    TableRows rows;
    for (const auto& [name, get] : fields) {
        std::vector<std::string> row = {name};
        for (const auto& r : runs)
            row.push_back(get(r.record.info.env));
        rows.push_back(std::move(row));
    }
    return markdownTable(headers, rows);
}

} // namespace

std::string comparisonMarkdown(const std::vector<ComparedRun>& runs, size_t top_ops) {
    std::ostringstream out;
    out << "# Run comparison\n\n";
    if (runs.empty()) return out.str() + "No runs given.\n";
    out << "Baseline: **" << runs[0].label << "**. Percentages are changes against it; step "
        << "phases are medians over the steady-state steps, so they need not add up to the "
        << "median step.\n\n"
        << compareNoiseNote(runToRunNoise(runs)) << "\n\n";
    for (const auto& r : runs)
        out << "- **" << r.label << "**: `" << r.record.dir.string() << "` ("
            << toString(r.record.summary.status) << ", " << r.record.info.config.model << " on "
            << r.record.info.config.dataset << ", " << r.record.info.config.device << ")\n";
    out << "\n## Baseline vs the others\n\n"
        << metricsTable(runs) << "\n"
        << chartMarkdown("images/s", compare_files::kImagesPng) << " "
        << chartMarkdown("epoch time", compare_files::kEpochPng) << "\n\n"
        << chartMarkdown("peak memory", compare_files::kMemoryPng) << " "
        << chartMarkdown("accuracy", compare_files::kAccuracyPng) << "\n"
        << "\n## Configuration differences\n\n"
        << configDifferences(runs) << "\n## Top operators\n";
    for (const auto& r : runs)
        out << "\n### " << r.label << "\n\n" << topOperators(r, top_ops);
    out << "\n## Advice\n";
    for (const auto& r : runs)
        out << "\n### " << r.label << "\n\n" << adviceList(r);
    out << "\n## Environment\n\n" << environments(runs);
    return out.str();
}

} // namespace ts
