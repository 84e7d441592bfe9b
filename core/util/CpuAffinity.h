#pragma once
// How many CPUs this process may run on: its affinity mask, which taskset,
// cgroup cpusets, container runtimes and cluster schedulers narrow. The
// machine's core count overstates it inside such limits, and LibTorch's
// default (one thread per physical core) ignores it.

namespace ts {

// At least 1.
int usableCores();

} // namespace ts
