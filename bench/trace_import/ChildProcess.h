#pragma once
// Runs one measured program as a child process: its wall time from the
// steady clock, its peak RSS from wait4()'s rusage. The rusage is the
// child's own, so the bench's memory does not count (beyond the few MB the
// child shares with it until exec).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace bench {

struct ChildRun {
    int exit_code = -1;      // 128 + signal when it was killed
    double wall_s = 0;       // spawn to reaped
    double spawned_at_s = 0; // the steady clock (CLOCK_MONOTONIC) at spawn, in seconds
    long long peak_rss_kb = 0;
    std::string out;      // its stdout when captured
    std::string err_tail; // the end of its stderr
};

// argv[0] is the program's path. `env` adds or replaces variables of the
// bench's environment. stdout is captured when `capture_out`, else
// discarded; stderr goes to `err_file` (its tail is kept in err_tail).
ChildRun runChild(const std::vector<std::string>& argv,
                  const std::vector<std::pair<std::string, std::string>>& env, bool capture_out,
                  const std::filesystem::path& err_file);

// The directory of the running program (/proc/self/exe).
std::filesystem::path programDir();

} // namespace bench
