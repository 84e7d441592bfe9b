#pragma once

namespace ts {

// While at least one enabled retention is alive, freed host memory stays in
// the process for reuse instead of going back to the kernel.
//
// Why: glibc hands large blocks back to the kernel when they are freed
// (blocks above the mmap threshold are unmapped, a free heap top above the
// trim threshold is trimmed). A training step frees and re-allocates the same
// activation buffers every step, so each step then page-faults all of them
// in again and the kernel zeroes every page: ResNet-18 with the CIFAR stem at
// batch 128 took 5.5 million page faults in 11 steps, 13.6 s of a 61 s run in
// the kernel. With retention the buffers are served from the heap and reused
// (0.34 million faults, 2.1 s). The price is a higher resident set during
// the run; the last retention to end gives the free memory back
// (malloc_trim) and restores glibc's default thresholds.
//
// The setting is process-wide: two runs in one process share it, and a run
// without retention that overlaps one with it still retains. After the last
// retention glibc keeps its static defaults (128 KiB thresholds), not the
// dynamic ones it starts with. On threads other than the main one (the GUI's
// training thread) blocks over glibc's per-thread heap size (64 MiB) are
// still mapped per allocation. Without glibc this does nothing.
class HostMemoryRetention {
public:
    explicit HostMemoryRetention(bool enabled);
    ~HostMemoryRetention();
    HostMemoryRetention(const HostMemoryRetention&) = delete;
    HostMemoryRetention& operator=(const HostMemoryRetention&) = delete;

    // Whether some retention is in force now (for tests and run records).
    static bool active();

private:
    bool enabled_;
};

} // namespace ts
