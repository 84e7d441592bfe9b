#pragma once
// `run` as a data-parallel job (docs/distributed.md).
//
// One run directory for the whole job: rank 0 writes the run itself there
// (run.json with the `distributed` block, steps.csv at the global rate,
// checkpoints), and every rank r writes its own records to ranks/<r>/
// (its steps, its profile windows and traces, its run.json).
#include <ostream>

#include "commands/CommandOptions.h"
#include "config/DistributedLaunch.h"

namespace ts {

// This process is one rank (started by launchRanks, torchrun or a cluster
// launcher, which set the variables of config/DistributedLaunch.h).
int runAsRank(const RunOptions& options, const DistributedLaunch& launch, std::ostream& out,
              std::ostream& err);

// `run --nproc-per-node N [--nnodes M --node-rank R --master-addr H --master-port P]`:
// hosts the rendezvous (node 0), starts this node's ranks as processes of this
// program, forwards Ctrl-C to them, and when one fails or dies stops the others
// (they notice within milliseconds; those that do not are killed after the
// timeout). Exit code: 0 when every rank succeeded.
int launchRanks(const RunOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
