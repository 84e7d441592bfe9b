#pragma once
// The intra-op thread count a run uses, and why (recorded in run.json's
// environment). `threads: 0` ("default") used to mean LibTorch's default, one
// thread per physical core as LibTorch counts them: one on a 2-core VM,
// where threads=2 trains 62% faster. The default is now the cores this
// process may use, shared between the data-parallel ranks on the machine,
// with a few left to busy loader workers. No torch.
#include <string>

namespace ts {

struct ThreadChoice {
    int threads = 1;
    std::string reason; // "threads=4 as configured", "2 usable cores (CPU affinity) ..."
};

// `requested` > 0 is taken as is. Otherwise: usable_cores / local_ranks,
// less one core per loader worker up to a quarter of them (a loader that
// decodes images competes with the operators; one that waits does not, and
// on small machines a whole core for it would cost more than it saves);
// at least 1.
ThreadChoice chooseIntraOpThreads(int requested, int workers, int usable_cores,
                                  int local_ranks = 1);

} // namespace ts
