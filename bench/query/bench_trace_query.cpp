// SQL and area selection on a trace (issue #47's targets): once the trace is
// open, a GROUP BY name over every event and the summary of an area that is
// a whole step (every lane), each under a second on the 1 GB benchmark
// trace; the export's time and size. Medians of --runs runs, side by side
// with the same queries forced through SQLite's sorter (what the name order
// saves). bench/query/query_vs_pandas.sh runs this beside Python (json.load
// and pandas, what HTA does) on the same trace. Torch-free.
//   bench_trace_query FILE [--runs N] [--step N] [--export OUT.db]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "../BenchTiming.h"
#include "../BenchTrace.h"
#include "analysis/AreaSummary.h"
#include "query/SqliteExport.h"
#include "query/TraceDatabase.h"

namespace {

using ts::bench::Clock;
using ts::bench::median;

double seconds(Clock::time_point since) {
    return ts::bench::secondsSince(since);
}

long peakRssMb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

// Runs `work` `runs` times; prints the median and every run.
void measure(const char* what, int runs, const std::function<size_t()>& work) {
    std::vector<double> times;
    size_t rows = 0;
    for (int i = 0; i < runs; ++i) {
        const Clock::time_point start = Clock::now();
        rows = work();
        times.push_back(seconds(start));
    }
    std::printf("%-44s median %.3f s (", what, median(times));
    for (size_t i = 0; i < times.size(); ++i)
        std::printf("%s%.3f", i ? ", " : "", times[i]);
    std::printf("), %zu rows\n", rows);
}

size_t rowsOf(ts::TraceDatabase& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    size_t rows = 0;
    while (stmt->next())
        ++rows;
    return rows;
}

// The window of step `n` (its ProfilerStep event; the nth of trace.steps
// without one), every lane.
ts::TraceArea stepArea(const ts::Trace& trace, int64_t n) {
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const ts::EventCore& e = trace.events.core(i);
        if (e.kind == ts::EventKind::ProfilerStep &&
            trace.names[e.name] == "ProfilerStep#" + std::to_string(n))
            return {e.start_ns, e.end_ns(), {}};
    }
    for (const ts::StepMark& s : trace.steps)
        if (s.step == n) return {s.start_ns, s.end_ns, {}};
    return {};
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: bench_trace_query FILE [--runs N] [--step N] [--export OUT.db]\n");
        return 2;
    }
    const std::string file = argv[1];
    int runs = 5;
    int64_t step = -1;
    std::string export_path;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--step") == 0) step = std::atoll(argv[i + 1]);
        if (std::strcmp(argv[i], "--export") == 0) export_path = argv[i + 1];
    }
    const Clock::time_point open_start = Clock::now();
    bool from_index = false;
    ts::Trace trace;
    try {
        trace = ts::bench::openBenchTrace(file, from_index);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    std::printf("%s: %zu events, %zu names, opened in %.2f s (%s), peak RSS %ld MB\n", file.c_str(),
                trace.events.size(), trace.names.size(), seconds(open_start),
                from_index ? "from its index" : "JSON", peakRssMb());

    const Clock::time_point db_start = Clock::now();
    ts::TraceDatabase db(trace);
    std::printf("%-44s %.3f s\n", "the database (virtual tables) made", seconds(db_start));
    measure("GROUP BY name, every event (name order)", runs, [&] {
        return rowsOf(db, "SELECT name, count(*), sum(dur), min(dur), max(dur) FROM slices "
                          "GROUP BY name ORDER BY sum(dur) DESC");
    });
    measure("the same through SQLite's sorter", runs, [&] {
        return rowsOf(db, "SELECT name, count(*), sum(dur), min(dur), max(dur) FROM slices "
                          "GROUP BY +name ORDER BY sum(dur) DESC");
    });
    measure("kernels GROUP BY name", runs, [&] {
        return rowsOf(db, "SELECT name, count(*), sum(dur) FROM kernels GROUP BY name");
    });

    if (step < 0) step = trace.steps.empty() ? 0 : trace.steps[trace.steps.size() / 2].step;
    const ts::TraceArea area = stepArea(trace, step);
    if (area.end_ns > area.start_ns) {
        const Clock::time_point roles_start = Clock::now();
        const ts::AreaRoles roles = ts::computeAreaRoles(trace);
        std::printf("%-44s %.3f s (once per trace)\n", "the Overview's category ranges",
                    seconds(roles_start));
        char label[96];
        std::snprintf(label, sizeof label, "area: step %lld, every lane (summary)",
                      static_cast<long long>(step));
        int64_t events = 0;
        measure(label, runs, [&] {
            const ts::AreaSummary s = ts::summarizeArea(trace, area, &roles);
            events = s.events;
            return s.overall.size();
        });
        std::printf("%-44s %lld events, %.3f ms\n", "  the area holds",
                    static_cast<long long>(events), double(area.end_ns - area.start_ns) / 1e6);
        const std::string a = std::to_string(area.start_ns), b = std::to_string(area.end_ns);
        measure("area: the same step by SQL (GROUP BY name)", runs, [&] {
            return rowsOf(db, "SELECT name, count(*), sum(dur), sum(min(end_ts, " + b +
                                  ") - max(ts, " + a + ")) FROM slices WHERE end_ts > " + a +
                                  " AND ts < " + b + " GROUP BY name");
        });
    }
    if (!export_path.empty()) {
        const Clock::time_point start = Clock::now();
        const ts::SqliteExportSummary s = ts::exportSqlite(trace, export_path);
        std::printf("%-44s %.2f s, %.1f MB (%.0f B per event)\n", "export --sqlite", seconds(start),
                    double(s.bytes) / 1e6,
                    double(s.bytes) / double(std::max<size_t>(1, trace.events.size())));
    }
    std::printf("peak RSS %ld MB\n", peakRssMb());
    return 0;
}
