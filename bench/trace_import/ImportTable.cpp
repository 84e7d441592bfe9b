#include "ImportTable.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include <nlohmann/json.hpp>

namespace bench {

namespace {

using json = nlohmann::json;

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string mb(uint64_t bytes) {
    return fixed(double(bytes) / 1e6, 1);
}

// Python's phase times from its one-line JSON output.
void pythonPhases(const ChildRun& run, double& load_s, double& aggregate_s) {
    const json out = json::parse(run.out.substr(0, run.out.find('\n')), nullptr, false);
    load_s = out.is_object() ? out.value("load_s", 0.0) : 0.0;
    aggregate_s = out.is_object() ? out.value("aggregate_s", 0.0) : 0.0;
}

double speedup(const ImportBench& b) {
    const ToolFigures t = figuresOf(b.trainscope, b.trace.json_bytes);
    const ToolFigures p = figuresOf(b.python, b.trace.json_bytes);
    return t.ok_runs && p.ok_runs && t.median_s > 0 ? p.median_s / t.median_s : 0;
}

struct Target {
    std::string what;
    std::string value;
    bool met;
};

// The targets (stated for a 1 GB Kineto trace), for what ran.
std::vector<Target> targets(const ImportBench& b) {
    std::vector<Target> list;
    const ToolFigures t = figuresOf(b.trainscope, b.trace.json_bytes);
    if (!t.ok_runs) return list;
    // The time limits are for 1 GB; a smaller file meets them more easily.
    const std::string scale = b.trace.json_bytes < 900000000 ? " (limit for 1 GB; this file is " +
                                                                   mb(b.trace.json_bytes) + " MB)"
                                                             : "";
    list.push_back({"overview in <= 3 s" + scale, fixed(t.median_s, 2) + " s", t.median_s <= 3.0});
    if (const double s = speedup(b); s > 0)
        list.push_back({">= 8x Python (json.load + aggregation)", fixed(s, 1) + "x", s >= 8.0});
    list.push_back({">= 10x Perfetto (>= 290 MB/s)",
                    fixed(t.mb_per_s, 0) + " MB/s = " + fixed(t.mb_per_s / kPerfettoMBps, 1) + "x",
                    t.mb_per_s >= 10 * kPerfettoMBps});
    list.push_back(
        {"peak RSS <= 0.6x the file", fixed(t.rss_per_json, 2) + "x", t.rss_per_json <= 0.6});
    const ToolFigures w = figuresOf(b.warm, b.trace.json_bytes);
    if (w.ok_runs)
        list.push_back({"reopen <= 0.5 s" + scale, fixed(w.median_s, 2) + " s", w.median_s <= 0.5});
    const ToolFigures gc = figuresOf(b.gui, b.trace.json_bytes);
    if (gc.ok_runs) {
        list.push_back({"GUI: timeline drawn in <= 3 s" + scale, fixed(gc.median_s, 2) + " s",
                        gc.median_s <= 3.0});
        list.push_back({"GUI: peak RSS <= 0.6x the file", fixed(gc.rss_per_json, 2) + "x",
                        gc.rss_per_json <= 0.6});
    }
    const ToolFigures gw = figuresOf(b.gui_warm, b.trace.json_bytes);
    if (gw.ok_runs)
        list.push_back({"GUI: reopened, timeline drawn in <= 0.5 s" + scale,
                        fixed(gw.median_s, 2) + " s", gw.median_s <= 0.5});
    return list;
}

std::string floor(const ChildRun& run) {
    return fixed(run.wall_s, 2) + " s and " + fixed(double(run.peak_rss_kb) * 1024 / 1e6, 0) +
           " MB peak RSS";
}

json floorJson(const ChildRun& run) {
    return {{"wall_s", run.wall_s}, {"peak_rss_mb", double(run.peak_rss_kb) * 1024 / 1e6}};
}

std::string failures(const ToolRuns& tool) {
    std::string text;
    for (size_t i = 0; i < tool.runs.size(); ++i) {
        const ChildRun& r = tool.runs[i];
        if (r.exit_code == 0) continue;
        text += "- " + tool.label + " run " + std::to_string(i + 1) + " failed with exit code " +
                std::to_string(r.exit_code) + ": " + r.err_tail + "\n";
    }
    return text;
}

json runsJson(const ToolRuns& tool, uint64_t json_bytes) {
    json runs = json::array();
    for (const ChildRun& r : tool.runs)
        runs.push_back({{"exit_code", r.exit_code},
                        {"wall_s", r.wall_s},
                        {"peak_rss_mb", double(r.peak_rss_kb) * 1024 / 1e6}});
    const ToolFigures f = figuresOf(tool, json_bytes);
    json out = {{"label", tool.label},
                {"runs", runs},
                {"ok_runs", f.ok_runs},
                {"median_s", f.median_s},
                {"min_s", f.min_s},
                {"mb_per_s", f.mb_per_s},
                {"peak_rss_mb", f.peak_rss_mb},
                {"rss_per_file", f.rss_per_json}};
    if (f.python_load_s > 0 || f.python_aggregate_s > 0) {
        out["load_s"] = f.python_load_s;
        out["aggregate_s"] = f.python_aggregate_s;
    }
    return out;
}

} // namespace

ToolFigures figuresOf(const ToolRuns& tool, uint64_t json_bytes) {
    ToolFigures f;
    std::vector<double> walls, loads, aggregates;
    long long peak_kb = 0;
    for (const ChildRun& r : tool.runs) {
        if (r.exit_code != 0) continue;
        walls.push_back(r.wall_s);
        peak_kb = std::max(peak_kb, r.peak_rss_kb);
        double load = 0, aggregate = 0;
        pythonPhases(r, load, aggregate);
        loads.push_back(load);
        aggregates.push_back(aggregate);
    }
    f.ok_runs = static_cast<int>(walls.size());
    if (walls.empty()) return f;
    f.median_s = median(walls);
    f.min_s = *std::min_element(walls.begin(), walls.end());
    f.mb_per_s = f.median_s > 0 ? double(json_bytes) / 1e6 / f.median_s : 0;
    f.peak_rss_mb = double(peak_kb) * 1024 / 1e6;
    f.rss_per_json = json_bytes ? double(peak_kb) * 1024 / double(json_bytes) : 0;
    f.python_load_s = median(loads);
    f.python_aggregate_s = median(aggregates);
    return f;
}

std::string markdownReport(const ImportBench& b) {
    const GeneratedTrace& g = b.trace;
    std::string md = "### " + g.path.filename().string() + "\n\n";
    md += "JSON " + mb(g.json_bytes) + " MB";
    if (g.file_bytes != g.json_bytes) md += " (" + mb(g.file_bytes) + " MB gzip on disk)";
    md += ", " + std::to_string(g.events) + " events, " + std::to_string(g.steps) +
          " steps: " + std::to_string(g.repetitions) + " repetitions of " + b.source +
          (g.reused ? " (generated by an earlier run)" : "") + ". MB = 10^6 bytes of JSON.\n\n";
    md += "| tool | runs | median s | min s | MB/s | peak RSS MB | RSS / file |\n";
    md += "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const ToolRuns* tool : {&b.trainscope, &b.warm, &b.gui, &b.gui_warm, &b.python}) {
        if (tool->runs.empty()) continue;
        const ToolFigures f = figuresOf(*tool, g.json_bytes);
        md += "| " + tool->label + " | " + std::to_string(f.ok_runs) + "/" +
              std::to_string(tool->runs.size()) + " | ";
        if (f.ok_runs == 0) {
            md += "failed | | | | |\n";
            continue;
        }
        md += fixed(f.median_s, 2) + " | " + fixed(f.min_s, 2) + " | " + fixed(f.mb_per_s, 0) +
              " | " + fixed(f.peak_rss_mb, 0) + " | " + fixed(f.rss_per_json, 2) + "x |\n";
    }
    md += "| Perfetto trace processor (reference, not run: pytorch/pytorch#138360) | - | " +
          fixed(double(g.json_bytes) / 1e6 / kPerfettoMBps, 1) + " | - | " +
          fixed(kPerfettoMBps, 0) + " | - | - |\n\n";
    const ToolFigures p = figuresOf(b.python, g.json_bytes);
    if (const double s = speedup(b); s > 0)
        md += "Trainscope over Python: " + fixed(s, 1) + "x (median wall times). ";
    if (p.ok_runs)
        md += "Python's phases (medians): json.load " + fixed(p.python_load_s, 2) +
              " s, aggregation " + fixed(p.python_aggregate_s, 2) + " s. ";
    if (!b.python_note.empty()) md += b.python_note + " ";
    md += "Startup floor (each tool once on the source trace): Trainscope " +
          floor(b.trainscope_floor);
    if (!b.python.runs.empty()) md += ", Python " + floor(b.python_floor);
    md += ". ";
    if (!b.warm.runs.empty())
        md += b.cache_written ? "The cold runs wrote a cache; the warm row reopens with it."
                              : "No run wrote a cache file (Trainscope has no trace cache "
                                "yet): the warm row is a second cold open.";
    md += "\n\nTargets of issue #14 (stated for a 1 GB Kineto trace; facts, not an exit "
          "status):\n\n";
    for (const Target& t : targets(b))
        md += "- " + t.what + ": " + t.value + " - " + (t.met ? "met" : "not met") + "\n";
    md += failures(b.trainscope) + failures(b.warm) + failures(b.gui) + failures(b.gui_warm) +
          failures(b.python);
    return md;
}

std::string jsonReport(const ImportBench& b) {
    const GeneratedTrace& g = b.trace;
    json out = {{"file", g.path.string()},
                {"source", b.source},
                {"file_bytes", g.file_bytes},
                {"json_bytes", g.json_bytes},
                {"events", g.events},
                {"steps", g.steps},
                {"repetitions", g.repetitions},
                {"perfetto_reference",
                 {{"mb_per_s", kPerfettoMBps}, {"source", "pytorch/pytorch#138360"}}}};
    json tools = json::array();
    for (const ToolRuns* tool : {&b.trainscope, &b.warm, &b.gui, &b.gui_warm, &b.python})
        if (!tool->runs.empty()) tools.push_back(runsJson(*tool, g.json_bytes));
    out["tools"] = tools;
    out["speedup_over_python"] = speedup(b);
    out["cache_written"] = b.cache_written;
    out["trainscope_floor"] = floorJson(b.trainscope_floor);
    if (!b.python.runs.empty()) out["python_floor"] = floorJson(b.python_floor);
    if (!b.python_note.empty()) out["python_note"] = b.python_note;
    json met = json::array();
    for (const Target& t : targets(b))
        met.push_back({{"target", t.what}, {"value", t.value}, {"met", t.met}});
    out["targets"] = met;
    return out.dump(2) + "\n";
}

} // namespace bench
