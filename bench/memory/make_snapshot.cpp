// Writes a CUDA allocator snapshot pickle for tests and benchmarks (#48): the
// bytes bench/memory/make_snapshot.py writes for the same arguments, at
// hundreds of MB/s instead of 0.3, and up to any size (--size-mb). Prints
// the figures the file must give (reserved, allocated, the peaks per
// device), which snapshot_vs_pickle.sh checks the readers against.
//   make_snapshot OUT [--seed N] [--entries N | --size-mb N] [--protocol 2|3|4|5]
//                     [--devices N] [--max-live N]
// --max-live N (C++ only; the bytes differ from make_snapshot.py's): at most
// N blocks alive, a steady state with few segments, as a training loop's
// snapshot has (the unbounded toy allocator keeps ~0.4 M segments per GB).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../BenchTiming.h"
#include "writer/SnapshotWriter.h"

namespace {

int usage() {
    std::fprintf(stderr, "usage: make_snapshot OUT [--seed N] [--entries N | --size-mb N] "
                         "[--protocol 2|3|4|5] [--devices N] [--max-live N]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return usage();
    const std::string path = argv[1];
    ts::snapgen::SnapshotSpec spec;
    double size_mb = 0;
    for (int i = 2; i < argc; i += 2) {
        if (i + 1 >= argc) return usage();
        const std::string flag = argv[i];
        const char* value = argv[i + 1];
        if (flag == "--seed")
            spec.seed = std::strtoull(value, nullptr, 10);
        else if (flag == "--entries")
            spec.entries = std::strtoull(value, nullptr, 10);
        else if (flag == "--size-mb")
            size_mb = std::atof(value);
        else if (flag == "--protocol")
            spec.protocol = std::atoi(value);
        else if (flag == "--devices")
            spec.devices = std::atoi(value);
        else if (flag == "--max-live")
            spec.max_live = std::strtoull(value, nullptr, 10);
        else
            return usage();
    }
    if (spec.protocol < 2 || spec.protocol > 5 || spec.devices < 1 || spec.entries < 1)
        return usage();
    const auto start = ts::bench::Clock::now();
    if (size_mb > 0) spec.entries = ts::snapgen::entriesForBytes(spec, uint64_t(size_mb * 1e6));
    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (!out) {
        std::fprintf(stderr, "make_snapshot: cannot write %s: %s\n", path.c_str(),
                     std::strerror(errno));
        return 2;
    }
    ts::snapgen::WrittenSnapshot written;
    try {
        written = ts::snapgen::writeSnapshot(spec, out);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_snapshot: %s\n", e.what());
        std::fclose(out);
        return 2;
    }
    if (std::fclose(out) != 0) {
        std::fprintf(stderr, "make_snapshot: cannot write %s\n", path.c_str());
        return 2;
    }
    const double seconds = ts::bench::secondsSince(start);
    std::printf(
        "%s: %.1f MB, protocol %d, seed %llu, %llu entries per device, %.2f s (%.0f MB/s)\n",
        path.c_str(), double(written.bytes) / 1e6, spec.protocol,
        static_cast<unsigned long long>(spec.seed), static_cast<unsigned long long>(spec.entries),
        seconds, double(written.bytes) / 1e6 / seconds);
    for (size_t d = 0; d < written.devices.size(); ++d) {
        const ts::snapgen::DeviceTotals& t = written.devices[d];
        std::printf(
            "device %zu: reserved %lld, allocated %lld, peak allocated %lld at entry %lld, "
            "peak reserved %lld\n",
            d, static_cast<long long>(t.reserved_bytes), static_cast<long long>(t.allocated_bytes),
            static_cast<long long>(t.peak_allocated_bytes), static_cast<long long>(t.peak_entry),
            static_cast<long long>(t.peak_reserved_bytes));
    }
    return 0;
}
