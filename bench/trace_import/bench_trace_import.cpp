// How fast Trainscope opens a big torch.profiler trace, against what the
// TensorBoard plugin and Holistic Trace Analysis do (Python's json.load plus
// one aggregation pass): issue #14, "gigabyte traces in seconds".
//
// Generates a trace of the given size from a small real one (TraceRepeater),
// then runs `trainscope-cli trace-stats FILE --view overview` and
// bench/trace_import_reference.py alternately as child processes, and prints
// wall time, MB/s, peak RSS and the speedup as a markdown table (--json for
// scripts). --gui also opens it in the GUI, offscreen, and times it to the
// first drawn Timeline frame, cold and reopened. --smoke is the ctest: a
// small trace, both tools once, the same event count from both, and the
// generated trace checked event by event. Exit 2 on bad arguments; the
// targets are printed, never an exit status.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "ChildProcess.h"
#include "ImportTable.h"
#include "TestPaths.h"
#include "TraceRepeater.h"
#include "trace/ChromeTraceReader.h"
#include "trace/KinetoNames.h"

namespace fs = std::filesystem;

namespace {

constexpr int kExitSkip = 77; // ctest's SKIP_RETURN_CODE

const char* const kUsage =
    R"(bench_trace_import: Trainscope's trace import against Python's json.load (issue #14)

  bench_trace_import [--make SIZE] [--gz] [--source FILE] [--work-dir DIR]
                     [--runs N] [--warm] [--cli PATH] [--python PATH] [--script PATH]
                     [--no-python] [--gui] [--gui-app PATH] [--json] [--generate-only]
                     [--smoke]

  --make SIZE      JSON size of the generated trace: 300M, 1G, 5G (decimal; default 1G)
  --gz             write it gzip-compressed (zlib level 1)
  --source FILE    the trace to repeat (default tests/data/torch_profiler_sample.json)
  --work-dir DIR   where generated traces are kept and reused (default: the build tree)
  --runs N         runs of each tool, alternating (default 3)
  --warm           also reopen with the cold run's TRAINSCOPE_CACHE_DIR
  --cli PATH       trainscope-cli (default: ../app/trainscope-cli next to this program)
  --python PATH    the Python for the reference (default /usr/bin/python3)
  --script PATH    the reference script (default bench/trace_import_reference.py)
  --no-python      run Trainscope only
  --gui            also open it in the GUI (offscreen, --view timeline --timings): the
                   time from spawn to its first drawn Timeline frame, cold and reopened
  --gui-app PATH   trainscope (default: ../app/trainscope next to this program)
  --json           print JSON instead of markdown
  --generate-only  generate (or find) the trace, print its path and stop
  --smoke          the ctest: 2M unless --make, one run each, counts compared
)";

struct Options {
    uint64_t size = 1000ull * 1000 * 1000;
    bool size_given = false;
    bool gz = false;
    fs::path source = fs::path(TRAINSCOPE_SOURCE_DIR) / "tests/data/torch_profiler_sample.json";
    fs::path work_dir = TRAINSCOPE_BENCH_WORK_DIR;
    int runs = 3;
    bool warm = false;
    fs::path cli = bench::programDir() / "../app/trainscope-cli";
    fs::path python = "/usr/bin/python3";
    bool python_given = false;
    fs::path script = fs::path(TRAINSCOPE_SOURCE_DIR) / "bench/trace_import_reference.py";
    bool no_python = false;
    bool gui = false;
    fs::path gui_app = bench::programDir() / "../app/trainscope";
    bool json = false;
    bool generate_only = false;
    bool smoke = false;
};

Options parseArgs(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--make") {
            o.size = bench::parseSize(value());
            o.size_given = true;
        } else if (arg == "--gz") {
            o.gz = true;
        } else if (arg == "--source") {
            o.source = value();
        } else if (arg == "--work-dir") {
            o.work_dir = value();
        } else if (arg == "--runs") {
            const std::string n = value();
            o.runs = std::atoi(n.c_str());
            if (o.runs < 1 || n.find_first_not_of("0123456789") != std::string::npos)
                throw std::invalid_argument("--runs: '" + n + "' is no positive number");
        } else if (arg == "--warm") {
            o.warm = true;
        } else if (arg == "--cli") {
            o.cli = value();
        } else if (arg == "--python") {
            o.python = value();
            o.python_given = true;
        } else if (arg == "--script") {
            o.script = value();
        } else if (arg == "--no-python") {
            o.no_python = true;
        } else if (arg == "--gui") {
            o.gui = true;
        } else if (arg == "--gui-app") {
            o.gui_app = value();
            o.gui = true;
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--generate-only") {
            o.generate_only = true;
        } else if (arg == "--smoke") {
            o.smoke = true;
        } else if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            std::exit(0);
        } else {
            throw std::invalid_argument("unknown argument '" + arg + "' (see --help)");
        }
    }
    if (o.smoke && !o.size_given) o.size = 2ull * 1000 * 1000;
    if (!fs::is_regular_file(o.source))
        throw std::invalid_argument("--source: " + o.source.string() + " does not exist");
    if (!o.no_python && !fs::is_regular_file(o.script))
        throw std::invalid_argument("--script: " + o.script.string() + " does not exist");
    return o;
}

bool executable(const fs::path& path) {
    return fs::is_regular_file(path) && access(path.c_str(), X_OK) == 0;
}

void progress(const std::string& line) {
    std::cerr << line << std::endl;
}

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

// A fresh directory for one cold run's TRAINSCOPE_CACHE_DIR.
fs::path freshCacheDir(const fs::path& work_dir) {
    std::string pattern = (work_dir / "cache.XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot create a cache directory in " + work_dir.string());
    return pattern;
}

// The GUI opening `file`, offscreen, with its own settings file (not the
// user's saved session); it prints when its Timeline first drew the trace.
std::vector<std::string> guiOn(const Options& o, const fs::path& file) {
    return {o.gui_app.string(),
            "--open",
            file.string(),
            "--view",
            "timeline",
            "--size",
            "1600x900",
            "--timings",
            "--quit-when-done",
            "--settings",
            (o.work_dir / "gui_settings.ini").string()};
}

// A GUI run's figure is the time from spawn to its first drawn Timeline
// frame (the monotonic clock it prints), not its wall time, which includes
// the settling before it quits; a run without that line failed.
bench::ChildRun guiRun(const Options& o, const fs::path& file,
                       const std::vector<std::pair<std::string, std::string>>& env,
                       const fs::path& err) {
    std::vector<std::pair<std::string, std::string>> gui_env = env;
    gui_env.emplace_back("QT_QPA_PLATFORM", "offscreen");
    bench::ChildRun r = bench::runChild(guiOn(o, file), gui_env, false, err);
    std::ifstream in(err);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch m;
    if (std::regex_search(
            text, m,
            std::regex(R"(timeline drawn [0-9.]+ s after start \(monotonic ([0-9.]+) s\))"))) {
        r.wall_s = std::stod(m[1]) - r.spawned_at_s;
    } else if (r.exit_code == 0) {
        r.exit_code = 1;
        r.err_tail = "no 'timeline drawn' line on stderr: " + r.err_tail;
    }
    return r;
}

bench::ImportBench runBench(const Options& o, const bench::GeneratedTrace& g,
                            const std::string& source_name, bool run_python) {
    bench::ImportBench b;
    b.trace = g;
    b.source = source_name;
    b.trainscope.label = "Trainscope `trace-stats --view overview` (cold)";
    b.warm.label = "Trainscope, reopened with the same TRAINSCOPE_CACHE_DIR (warm)";
    b.python.label = "Python `json.load` + aggregation (" + o.python.string() + ")";
    b.gui.label = "Trainscope GUI `--open FILE --view timeline`, spawn to the first drawn "
                  "Timeline frame (cold, offscreen)";
    b.gui_warm.label = "Trainscope GUI, reopened with the same TRAINSCOPE_CACHE_DIR";
    const fs::path err = o.work_dir / "child_stderr.txt";
    const auto cli_on = [&](const fs::path& file) {
        return std::vector<std::string>{o.cli.string(), "trace-stats", file.string(), "--view",
                                        "overview"};
    };
    const auto python_on = [&](const fs::path& file) {
        return std::vector<std::string>{o.python.string(), o.script.string(), file.string()};
    };
    const std::vector<std::string> cli = cli_on(g.path);
    const fs::path floor_cache = freshCacheDir(o.work_dir);
    b.trainscope_floor = bench::runChild(
        cli_on(o.source), {{"TRAINSCOPE_CACHE_DIR", floor_cache.string()}}, false, err);
    fs::remove_all(floor_cache);
    if (run_python) b.python_floor = bench::runChild(python_on(o.source), {}, true, err);
    for (int i = 0; i < o.runs; ++i) {
        const fs::path cache = freshCacheDir(o.work_dir);
        const std::vector<std::pair<std::string, std::string>> env = {
            {"TRAINSCOPE_CACHE_DIR", cache.string()}};
        const auto report = [&](const char* what, const bench::ChildRun& r) {
            progress("run " + std::to_string(i + 1) + "/" + std::to_string(o.runs) + " " + what +
                     ": " + fixed(r.wall_s, 2) + " s, peak RSS " +
                     fixed(double(r.peak_rss_kb) / 1024, 0) + " MiB, exit " +
                     std::to_string(r.exit_code));
        };
        b.trainscope.runs.push_back(bench::runChild(cli, env, false, err));
        report("Trainscope", b.trainscope.runs.back());
        if (o.warm) {
            b.warm.runs.push_back(bench::runChild(cli, env, false, err));
            report("Trainscope warm", b.warm.runs.back());
        }
        b.cache_written = b.cache_written || !fs::is_empty(cache);
        fs::remove_all(cache);
        if (o.gui) {
            const fs::path gui_cache = freshCacheDir(o.work_dir);
            const std::vector<std::pair<std::string, std::string>> gui_env = {
                {"TRAINSCOPE_CACHE_DIR", gui_cache.string()}};
            b.gui.runs.push_back(guiRun(o, g.path, gui_env, err));
            report("GUI (to the drawn timeline)", b.gui.runs.back());
            b.gui_warm.runs.push_back(guiRun(o, g.path, gui_env, err));
            report("GUI reopened", b.gui_warm.runs.back());
            fs::remove_all(gui_cache);
        }
        if (run_python) {
            b.python.runs.push_back(bench::runChild(python_on(g.path), {}, true, err));
            report("Python", b.python.runs.back());
        }
    }
    return b;
}

struct ChildFailed {
    int exit_code;
};

// The trace is generated in a child process: a measured child's peak RSS
// (wait4) starts from the peak of the process that spawned it, whose memory
// it shares until exec, so the bench itself stays small.
bench::GeneratedTrace traceFor(const Options& o) {
    const fs::path path = bench::generatedTracePath(o.source, o.work_dir, o.size, o.gz);
    if (auto found = bench::findGeneratedTrace(path)) return *found;
    std::cout.flush();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("cannot fork to generate " + path.string());
    if (pid == 0) {
        int code = 0;
        try {
            bench::generateTrace(o.source, path, o.size, o.gz);
        } catch (const std::invalid_argument& e) {
            std::cerr << "bench_trace_import: " << e.what() << std::endl;
            code = 2;
        } catch (const std::exception& e) {
            std::cerr << "bench_trace_import: " << e.what() << std::endl;
            code = 1;
        }
        _exit(code);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw ChildFailed{WIFEXITED(status) ? WEXITSTATUS(status) : 1};
    auto made = bench::findGeneratedTrace(path);
    if (!made) throw std::runtime_error(path.string() + " was not generated");
    made->reused = false;
    return *made;
}

// Absolute (lane, start, dur, name) of every event, sorted.
using EventKey = std::tuple<std::string, int64_t, int64_t, std::string>;
std::vector<EventKey> eventKeys(const ts::Trace& t) {
    std::vector<EventKey> keys;
    keys.reserve(t.events.size());
    for (const ts::TraceEvent& e : t.events)
        keys.emplace_back(t.lanes[e.lane].name, t.origin_ns + e.start_ns, e.dur_ns, t.nameOf(e));
    std::sort(keys.begin(), keys.end());
    return keys;
}

// Reads the generated trace with Trainscope's reader: each repetition must
// be the source's events shifted by k periods, to the nanosecond, and the
// steps the source's renumbered. Returns the problems found.
std::vector<std::string> verifyGenerated(const fs::path& source, const bench::GeneratedTrace& g) {
    const bench::RepetitionSummary& rep = g.repetition;
    std::vector<std::string> problems;
    const ts::Trace src = ts::readChromeTraceFile(source);
    const ts::Trace gen = ts::readChromeTraceFile(g.path);
    std::vector<EventKey> expected;
    for (int64_t k = 0; k < g.repetitions; ++k)
        for (EventKey key : eventKeys(src)) {
            std::get<1>(key) += k * rep.period_ns;
            std::string& name = std::get<3>(key);
            if (const int64_t step = ts::profilerStepNumber(name); step >= 0)
                name = "ProfilerStep#" + std::to_string(step + k * rep.steps);
            expected.push_back(std::move(key));
        }
    std::sort(expected.begin(), expected.end());
    const std::vector<EventKey> got = eventKeys(gen);
    if (got.size() != expected.size())
        problems.push_back("Trainscope reads " + std::to_string(got.size()) +
                           " events from the generated trace, expected " +
                           std::to_string(expected.size()));
    const auto mismatch = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
    if (got.size() == expected.size() && mismatch.first != got.end())
        problems.push_back("event " + std::get<3>(*mismatch.first) + " at " +
                           std::to_string(std::get<1>(*mismatch.first)) + " ns, expected " +
                           std::get<3>(*mismatch.second) + " at " +
                           std::to_string(std::get<1>(*mismatch.second)) + " ns");
    if (static_cast<int64_t>(gen.steps.size()) != g.steps)
        problems.push_back("Trainscope reads " + std::to_string(gen.steps.size()) +
                           " steps, expected " + std::to_string(g.steps));
    for (size_t i = 0; i < gen.steps.size() && i < src.steps.size() * g.repetitions; ++i) {
        const ts::StepMark& s = src.steps[i % src.steps.size()];
        const int64_t k = static_cast<int64_t>(i / src.steps.size());
        const ts::StepMark& got_step = gen.steps[i];
        if (got_step.step != s.step + k * rep.steps ||
            gen.origin_ns + got_step.start_ns != src.origin_ns + s.start_ns + k * rep.period_ns) {
            problems.push_back("step " + std::to_string(got_step.step) + " is not step " +
                               std::to_string(s.step) + " of repetition " + std::to_string(k));
            break;
        }
    }
    return problems;
}

// "FILE: torch.profiler (kineto), 340 events, 1 threads, 2 steps".
bool parseFirstLine(const std::string& out, int64_t& events, int64_t& steps) {
    std::smatch m;
    const std::string line = out.substr(0, out.find('\n'));
    if (!std::regex_search(line, m, std::regex(R"(, (\d+) events,.*, (\d+) steps)"))) return false;
    events = std::stoll(m[1]);
    steps = std::stoll(m[2]);
    return true;
}

int smoke(const Options& o, const bench::GeneratedTrace& g) {
    // The generator's check needs neither tool: it runs in every build.
    std::vector<std::string> problems = verifyGenerated(o.source, g);
    for (const std::string& p : problems)
        std::cout << "FAIL: " << p << "\n";
    if (!problems.empty()) return 1;
    std::cout << "generated trace: " << g.repetitions
              << " repetitions of the source, read back to the nanosecond\n";
    if (!executable(o.cli)) {
        std::cout << "skipped: no trainscope-cli at " << o.cli.string()
                  << " (it is built by the full build, with LibTorch)\n";
        return kExitSkip;
    }
    if (!executable(o.python)) {
        std::cout << "skipped: no Python at " << o.python.string() << "\n";
        return kExitSkip;
    }
    const fs::path err = o.work_dir / "child_stderr.txt";
    // Not the user's trace cache: a directory of the smoke run's own.
    const fs::path cache = freshCacheDir(o.work_dir);
    const std::vector<std::pair<std::string, std::string>> env = {
        {"TRAINSCOPE_CACHE_DIR", cache.string()}};
    const auto overview = bench::runChild(
        {o.cli.string(), "trace-stats", g.path.string(), "--view", "overview"}, env, false, err);
    if (overview.exit_code != 0)
        problems.push_back("trace-stats --view overview exited with " +
                           std::to_string(overview.exit_code) + ": " + overview.err_tail);
    const auto stats = bench::runChild(
        {o.cli.string(), "trace-stats", g.path.string(), "--limit", "1"}, env, true, err);
    fs::remove_all(cache);
    int64_t t_events = -1, t_steps = -1;
    if (stats.exit_code != 0 || !parseFirstLine(stats.out, t_events, t_steps))
        problems.push_back("trace-stats gave no event count (exit " +
                           std::to_string(stats.exit_code) + "): " + stats.out.substr(0, 200) +
                           stats.err_tail);
    const auto python =
        bench::runChild({o.python.string(), o.script.string(), g.path.string()}, {}, true, err);
    const auto py =
        nlohmann::json::parse(python.out.substr(0, python.out.find('\n')), nullptr, false);
    const int64_t p_events = py.is_object() ? py.value("events", int64_t(-1)) : -1;
    if (python.exit_code != 0 || p_events < 0)
        problems.push_back("the Python reference failed (exit " + std::to_string(python.exit_code) +
                           "): " + python.err_tail);
    std::cout << g.path.string() << ": " << g.repetitions << " repetitions, expected " << g.events
              << " events and " << g.steps << " steps; Trainscope: " << t_events << " events, "
              << t_steps << " steps; Python: " << p_events << " events\n";
    if (t_events != g.events || p_events != g.events || t_steps != g.steps)
        problems.push_back("the counts differ");
    for (const std::string& p : problems)
        std::cout << "FAIL: " << p << "\n";
    if (problems.empty()) std::cout << "ok\n";
    return problems.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parseArgs(argc, argv);
        // Checked before a gigabyte is generated.
        const bool measure = !o.smoke && !o.generate_only;
        if (measure && !executable(o.cli))
            throw std::invalid_argument("--cli: no trainscope-cli at " + o.cli.string() +
                                        "; build it (ninja trainscope-cli) or give its path");
        if (measure && o.gui && !executable(o.gui_app))
            throw std::invalid_argument("--gui-app: no trainscope at " + o.gui_app.string() +
                                        "; build it (ninja trainscope) or give its path");
        bool run_python = measure && !o.no_python;
        std::string python_note;
        if (run_python && !executable(o.python)) {
            if (o.python_given)
                throw std::invalid_argument("--python: " + o.python.string() + " is no executable");
            run_python = false;
            python_note = "Python was not run: no " + o.python.string() + ".";
        }
        fs::create_directories(o.work_dir);
        const bench::GeneratedTrace g = traceFor(o);
        progress(std::string(g.reused ? "reusing " : "generated ") + g.path.string() + " (" +
                 fixed(double(g.json_bytes) / 1e6, 1) + " MB JSON, " +
                 std::to_string(g.repetitions) + " repetitions)");
        if (o.generate_only) {
            std::cout << g.path.string() << "\n";
            return 0;
        }
        if (o.smoke) return smoke(o, g);
        const fs::path relative = fs::path(o.source).lexically_relative(TRAINSCOPE_SOURCE_DIR);
        const std::string source_name =
            relative.empty() || *relative.begin() == ".." ? o.source.string() : relative.string();
        bench::ImportBench b = runBench(o, g, source_name, run_python);
        b.python_note = python_note;
        std::cout << (o.json ? bench::jsonReport(b) : bench::markdownReport(b));
        return 0;
    } catch (const ChildFailed& e) {
        return e.exit_code; // it said why
    } catch (const std::invalid_argument& e) {
        std::cerr << "bench_trace_import: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "bench_trace_import: " << e.what() << "\n";
        return 1;
    }
}
