#pragma once
// When dynolog already owns the socket libkineto polls, Trainscope does not
// fight it: it asks dynolog for the trace through dynolog's own request
// interface (what `dyno gputrace` sends: a 4-byte length in host order, then
// a JSON object, on TCP port 1778 of this machine) and then waits for the
// files libkineto writes, as it does for its own requests.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "ondemand/LiveJobs.h"

namespace ts::ondemand {

inline constexpr int kDynologPort = 1778;

struct DynologRequest {
    std::string config;
    int64_t job_id = 0; // the job id libkineto reports ($SLURM_JOB_ID, else 0)
    std::vector<int> pids;
    int process_limit = 1000;
};

struct DynologReply {
    bool ok = false;
    std::string error;          // in plain words when !ok
    std::vector<int> matched;   // processes dynolog matched
    std::vector<int> triggered; // those it will hand the config (the others are busy)
    int busy = 0;
};

// The request's bytes (length and JSON), and a reply's JSON read.
std::string encodeDynologRequest(const DynologRequest& request);
DynologReply parseDynologReply(const std::string& json_text);

// Sends `request` to dynolog on localhost:`port` and reads its reply, within
// `timeout`.
DynologReply askDynolog(const DynologRequest& request, int port = kDynologPort,
                        std::chrono::milliseconds timeout = std::chrono::seconds(5));

// Traces `pid` (and the processes dynolog matches with it) through dynolog:
// asks, then waits for each matched process's file and moves it into
// `out_dir` as a ticket of LiveJobs would. `progress` hears each change.
TraceTicket traceThroughDynolog(int pid, const TraceRequest& request, const std::string& out_dir,
                                std::chrono::seconds write_timeout,
                                const std::function<void(const std::string&)>& progress,
                                int port = kDynologPort);

} // namespace ts::ondemand
