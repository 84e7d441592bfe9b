#include "JobCommandsCli.h"

namespace ts::cli {

void addJobCommands(CLI::App& app, JobCommands& c) {
    auto* jobs = app.add_subcommand(
        "jobs", "the PyTorch processes started with KINETO_USE_DAEMON=1 that poll this machine's "
                "on-demand daemon (docs/on-demand.md)");
    jobs->add_option("--wait", c.jobs.wait_s,
                     "seconds to listen for their polls (they poll every 5 s; default 6)");
    jobs->add_flag("--json", c.jobs.json, "print JSON");
    c.jobs_cmd = jobs;

    TraceJobOptions& t = c.trace;
    auto* trace = app.add_subcommand(
        "trace-job", "trace the next steps of a running PyTorch process, or of every rank of a "
                     "job, with no restart (docs/on-demand.md)");
    trace->add_option("pid", t.pid, "the process (as `jobs` lists it)");
    trace->add_option("--job", t.job, "every process of this job (the JOB column of `jobs`)");
    auto* iterations =
        trace->add_option("--iterations", t.request.iterations, "the next N steps (default 5)");
    trace->add_option("--duration-ms", t.request.duration_ms, "the next N milliseconds instead")
        ->excludes(iterations)
        ->each([&t](const std::string&) { t.request.iterations = 0; });
    trace->add_option("--align-steps", t.request.align_steps,
                      "start every rank at the next multiple of N steps (default: 1 for one "
                      "process, 100 for a job)");
    trace->add_option("--out", t.out_dir, "the folder for the trace (default: here)");
    trace->add_flag("--shapes", t.request.shapes, "record input shapes");
    trace->add_flag("--memory", t.request.memory, "record memory allocations");
    trace->add_flag("--stacks", t.request.stacks, "record Python stacks");
    trace->add_flag("--modules", t.request.modules, "record the nn.Module hierarchy");
    trace->add_option("--timeout", t.timeout_s, "seconds to wait for the job to poll (default 20)");
    trace->add_option("--write-timeout", t.write_timeout_s,
                      "seconds to wait for the trace once asked (default 120)");
    trace->add_flag("--json", t.json, "print JSON");
    c.trace_cmd = trace;
}

std::optional<int> runJobCommands(const JobCommands& commands, std::ostream& out,
                                  std::ostream& err) {
    if (*commands.jobs_cmd) return runJobs(commands.jobs, out, err);
    if (*commands.trace_cmd) return runTraceJob(commands.trace, out, err);
    return std::nullopt;
}

} // namespace ts::cli
