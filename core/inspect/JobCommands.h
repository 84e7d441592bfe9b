#pragma once
// `trainscope-cli jobs` and `trainscope-cli trace-job`: Trainscope as Kineto's
// on-demand daemon from the command line (docs/on-demand.md). `jobs` lists
// the PyTorch processes that poll it; `trace-job` traces the next steps of
// one process, or of every rank of a job, waits for the trace and prints
// where it went and its overview.
#include <ostream>
#include <string>

#include "ondemand/TraceRequest.h"

namespace ts {

struct JobsOptions {
    double wait_s = 6; // libkineto polls every 5 s
    bool json = false;
};

struct TraceJobOptions {
    int pid = 0;
    std::string job; // --job: every process of it
    ondemand::TraceRequest request;
    std::string out_dir = ".";
    double timeout_s = 20;        // for the job to poll
    double write_timeout_s = 120; // for the trace to be written once asked
    bool json = false;
};

// 0 on success; 2 for bad options or a socket Trainscope cannot own (the
// message says who holds it and what to do).
int runJobs(const JobsOptions& options, std::ostream& out, std::ostream& err);
// 0 when every trace was written; 2 for bad options, a socket taken or a job
// that never polled in the timeout; 1 when a trace failed (the job exited,
// its profiler stayed busy, the file never appeared).
int runTraceJob(const TraceJobOptions& options, std::ostream& out, std::ostream& err);

} // namespace ts
