#pragma once
// Where this process stands in a data-parallel run: its rank, the world, and
// the rendezvous (c10d's TCPStore at master_addr:master_port). Plain values, no
// LibTorch: the CLI builds them from its flags or from the variables torchrun
// and cluster launchers set (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE,
// MASTER_ADDR, MASTER_PORT), and the engine only reads them.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/ExperimentConfig.h"

namespace ts {

struct DistributedLaunch {
    int world_size = 1;
    int rank = 0;
    int local_rank = 0;
    int local_world_size = 1; // ranks on this machine: they share its cores
    std::string master_addr = "127.0.0.1";
    int master_port = 0;
    // True when a launcher (ours, or torchrun's agent) hosts the store on
    // master_port and every rank connects as a client; false: rank 0 hosts it.
    bool store_hosted_by_launcher = false;
    // A collective that does not finish within this many seconds (a rank hung
    // or gone) fails the run with a clear error instead of waiting forever.
    double timeout_s = 60;

    bool enabled() const { return world_size > 1; }
};

// Reads the launcher variables through `getenv` (a parameter for tests).
// Returns nullopt when WORLD_SIZE is unset (a single process); problems with
// the values (not a number, rank outside the world, no MASTER_PORT) are
// appended to `issues` naming the variable.
using EnvLookup = std::function<const char*(const char*)>;
std::optional<DistributedLaunch> distributedLaunchFromEnvironment(const EnvLookup& getenv,
                                                                  std::vector<ConfigIssue>& issues);

// The variables a launcher sets for one local rank of node `node_rank` (ours,
// like torchrun's static rendezvous), as "NAME=value" strings.
std::vector<std::string> rankEnvironment(const DistributedLaunch& rank);

} // namespace ts
