// Reads a Chrome trace with the nlohmann stream (the reader before issue #14)
// and with the fast reader, alternately, each read in a forked child so that
// its peak RSS (wait4's ru_maxrss) is its own. Prints the median wall time,
// MB/s, events and peak RSS of each. Torch-free: links the trace layer only.
//   bench_trace_read FILE [--runs N] [--workers N] [--block-mb N]
//   bench_trace_read FILE --blocks 256k,1,2,4 [--runs N]: the fast reader only, with
//   each block size in turn, in MB or KB (the reader's memory against its speed)
//   bench_trace_read FILE --flops [--runs N]: what estimating the FLOPs of a
//   trace without any (FlopModel.h) adds to its read: the read, then the
//   estimate alone (the FLOPs cleared and estimated again), and the memory
//   of the cost rows it adds
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "trace/ChromeTraceReader.h"
#include "trace/FastTraceReader.h"
#include "trace/FlopModel.h"

namespace {

struct Run {
    double seconds = 0;
    long events = 0;
    long max_rss_kb = 0;
    double cpu_seconds = 0; // user + system, all threads: the work, less noisy than wall time
};

double seconds(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// One read in a child; the child reports its time and event count through a pipe.
Run readInChild(const std::string& path, const ts::TraceReadOptions& options) {
    int fds[2];
    if (pipe(fds) != 0) std::exit(2);
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        const auto t0 = std::chrono::steady_clock::now();
        long events = -1;
        try {
            events = static_cast<long>(ts::readChromeTraceFile(path, {}, options).events.size());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s\n", e.what());
        }
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char line[64];
        const int n = std::snprintf(line, sizeof line, "%.6f %ld", s, events);
        if (write(fds[1], line, static_cast<size_t>(n)) != n) _exit(3);
        _exit(0);
    }
    close(fds[1]);
    char line[64] = {0};
    if (read(fds[0], line, sizeof line - 1) < 0) std::exit(2);
    close(fds[0]);
    int status = 0;
    struct rusage usage {};
    wait4(child, &status, 0, &usage);
    Run r;
    std::sscanf(line, "%lf %ld", &r.seconds, &r.events);
    r.max_rss_kb = usage.ru_maxrss;
    r.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void printRow(const char* name, const std::vector<Run>& rs, double mb) {
    std::vector<double> t, rss, cpu;
    for (const Run& r : rs) {
        t.push_back(r.seconds);
        rss.push_back(static_cast<double>(r.max_rss_kb) / 1024);
        cpu.push_back(r.cpu_seconds);
    }
    const double s = median(t), peak = *std::max_element(rss.begin(), rss.end());
    std::printf("%-22s %10.3f %9.1f %10ld %12.1f %8.2f %8.2f\n", name, s, mb / s, rs.front().events,
                peak, peak / mb, median(cpu));
}

std::string sizeLabel(size_t kb) {
    return kb % 1024 == 0 ? std::to_string(kb / 1024) + " MB" : std::to_string(kb) + " KB";
}

int compareBlocks(const std::string& path, double mb, ts::TraceReadOptions fast,
                  const std::vector<size_t>& blocks_kb, int runs) {
    std::vector<std::vector<Run>> rows(blocks_kb.size());
    for (int i = 0; i < runs; ++i) // alternate, so that drift hits every size alike
        for (size_t b = 0; b < blocks_kb.size(); ++b) {
            fast.block_bytes = blocks_kb[b] << 10;
            rows[b].push_back(readInChild(path, fast));
        }
    std::printf("%-22s %10s %9s %10s %12s %8s %8s\n", "fast reader, block", "median s", "MB/s",
                "events", "peak RSS MB", "RSS/file", "CPU s");
    for (size_t b = 0; b < blocks_kb.size(); ++b)
        printRow(sizeLabel(blocks_kb[b]).c_str(), rows[b], mb);
    return 0;
}

// The read in a child, then in this process the estimate again on the
// trace read (its FLOPs cleared first), `runs` times each.
int compareFlopEstimate(const std::string& path, double mb, const ts::TraceReadOptions& fast,
                        int runs) {
    std::vector<Run> reads;
    for (int i = 0; i < runs; ++i)
        reads.push_back(readInChild(path, fast));
    ts::Trace t = ts::readChromeTraceFile(path, {}, fast);
    const ts::EventStore::MemoryParts parts = t.events.memoryParts();
    std::vector<double> estimate;
    size_t counted = 0;
    for (int i = 0; i < runs; ++i) {
        for (size_t e = 0; e < t.events.size(); ++e) {
            const ts::EventKind kind = t.events.core(e).kind;
            const bool costed = kind == ts::EventKind::Operator || kind == ts::EventKind::Backward;
            if (costed && t.events[e].flops > 0)
                t.events.edit(e, [](ts::TraceEvent& w) { w.flops = 0, w.bytes = 0; });
        }
        const auto t0 = std::chrono::steady_clock::now();
        counted = ts::annotateCosts(t);
        estimate.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%-22s %10s %9s %10s %12s %8s %8s\n", "reader", "median s", "MB/s", "events",
                "peak RSS MB", "RSS/file", "CPU s");
    printRow("fast, FLOPs estimated", reads, mb);
    const double read_s = reads.empty() ? 0 : median([&] {
        std::vector<double> v;
        for (const Run& r : reads)
            v.push_back(r.seconds);
        return v;
    }());
    const double est = median(estimate);
    std::printf("FLOP estimate alone: median %.3f s (%.1f%% of the read), %zu events with FLOPs "
                "of %zu; their cost + rare rows: %.1f MB (%.1f bytes per event of the trace)\n",
                est, read_s > 0 ? 100 * est / read_s : 0.0, counted, t.events.size(),
                double(parts.costs + parts.rare) / (1 << 20),
                t.events.empty() ? 0.0
                                 : double(parts.costs + parts.rare) / double(t.events.size()));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: %s FILE [--runs N] [--workers N] [--block-mb N | --blocks A,B,... | "
                     "--flops]\n",
                     argv[0]);
        return 2;
    }
    const std::string path = argv[1];
    int runs = 3;
    ts::TraceReadOptions fast;
    fast.min_parallel_bytes = 0;
    // --blocks: fast reader only, one row per size; MB, or KB with a "k" ("256k,2")
    std::vector<size_t> blocks_kb;
    bool flops = false;
    for (int i = 2; i < argc; ++i)
        flops = flops || !std::strcmp(argv[i], "--flops");
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--flops")) --i; // a flag: no value follows
        if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--blocks"))
            for (const char* p = argv[i + 1]; *p; p += *p == ',' ? 1 : 0) {
                char* end = nullptr;
                const size_t n = std::strtoul(p, &end, 10);
                if (end == p || n == 0) return std::fprintf(stderr, "bad --blocks\n"), 2;
                const bool kb = *end == 'k' || *end == 'K';
                blocks_kb.push_back(kb ? n : n << 10);
                p = end + (kb ? 1 : 0);
            }
        if (!std::strcmp(argv[i], "--workers")) fast.workers = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--block-mb"))
            fast.block_bytes = static_cast<size_t>(std::atoi(argv[i + 1])) << 20;
    }
    ts::TraceReadOptions old;
    old.sequential = true;
    const double mb = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
    std::printf("file %s: %.1f MB; fast reader %s\n", path.c_str(), mb,
                ts::fastTraceReaderAvailable() ? "with simdjson" : "unavailable (no simdjson)");
    if (!blocks_kb.empty()) return compareBlocks(path, mb, fast, blocks_kb, runs);
    if (flops) return compareFlopEstimate(path, mb, fast, runs);
    std::vector<Run> a, b;
    for (int i = 0; i < runs; ++i) { // alternate, so that drift hits both alike
        a.push_back(readInChild(path, old));
        b.push_back(readInChild(path, fast));
    }
    std::printf("%-22s %10s %9s %10s %12s %8s %8s\n", "reader", "median s", "MB/s", "events",
                "peak RSS MB", "RSS/file", "CPU s");
    printRow("nlohmann (before #14)", a, mb);
    printRow("fast (simdjson)", b, mb);
    return 0;
}
