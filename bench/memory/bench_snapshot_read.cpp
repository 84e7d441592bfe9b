// How fast Trainscope opens an allocator snapshot and in how much memory
// (#48's targets: 10x faster than Python's pickle.load, peak RSS at most the
// file's size): medians of --runs reads, peak RSS, and the figures read, so
// that a wrong read cannot pass for a fast one. The median leaves out what
// the first read of a process pays (its memory touched for the first time),
// which a command pays every time: the first read is printed beside it, and
// snapshot_vs_pickle.sh times `trainscope-cli memory-stats` end to end, a
// process per run, beside this bench and pickle.load. Torch-free.
//   bench_snapshot_read FILE [--runs N]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "../BenchTiming.h"
#include "snapshot/SnapshotAnalysis.h"
#include "snapshot/SnapshotReader.h"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_snapshot_read FILE [--runs N]\n");
        return 2;
    }
    const std::string file = argv[1];
    int runs = 3;
    for (int i = 2; i + 1 < argc; i += 2)
        if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
    std::vector<double> times;
    ts::MemorySnapshot s;
    try {
        for (int i = 0; i < runs; ++i) {
            s = {}; // the previous read's memory goes first (peak RSS: one snapshot)
            const auto start = ts::bench::Clock::now();
            s = ts::readMemorySnapshot(file);
            times.push_back(ts::bench::secondsSince(start));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double mb = double(std::filesystem::file_size(file)) / 1e6;
    std::printf("%s: %.1f MB, protocol %d, %zu events, %zu frames, %zu stacks, %zu segments\n",
                file.c_str(), mb, s.protocol, s.events.size(), s.frames.size(), s.stackCount(),
                s.segments.size());
    std::printf("read: median %.3f s (", ts::bench::median(times));
    for (size_t i = 0; i < times.size(); ++i)
        std::printf("%s%.3f", i ? ", " : "", times[i]);
    std::printf("), %.0f MB/s, peak RSS %ld MB (%.2f of the file)\n", mb / ts::bench::median(times),
                u.ru_maxrss / 1024, double(u.ru_maxrss) / 1024 / mb);
    const auto start = ts::bench::Clock::now();
    for (int d = 0; d < s.devices(); ++d) {
        const ts::DeviceMemorySummary x = ts::summarizeDevice(s, d);
        std::printf(
            "device %d: reserved %lld, allocated %lld, peak allocated %lld at entry %lld, "
            "peak reserved %lld\n",
            d, static_cast<long long>(x.reserved_bytes), static_cast<long long>(x.allocated_bytes),
            static_cast<long long>(x.peak_allocated_bytes), static_cast<long long>(x.peak_entry),
            static_cast<long long>(x.peak_reserved_bytes));
        ts::aliveAt(s, d, x.peak_entry);
    }
    std::printf("analysis (summary and the peak's stacks): %.3f s\n",
                ts::bench::secondsSince(start));
    std::printf("first read: %.3f s (a process's: its memory touched for the first time)\n",
                times.front());
    const auto teardown = ts::bench::Clock::now();
    s = {};
    std::printf("teardown: %.3f s\n", ts::bench::secondsSince(teardown));
    return 0;
}
