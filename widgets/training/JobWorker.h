#pragma once
// A data-parallel job started from the GUI: its ranks are processes, so the
// job runs as `trainscope-cli run --nproc-per-node N` (the same launcher,
// rendezvous and fault handling as on the command line) and the GUI follows
// the run directory every rank writes (RunFollower), feeding the LiveBuffer
// the job's steps at the global rate and each rank's own steps.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <filesystem>

#include "config/ExperimentConfig.h"
#include "report/RunDirectory.h"
#include "training/LiveBuffer.h"
#include "training/TrainingWork.h"

namespace ts::gui {

class JobWorker : public TrainingWork {
public:
    // `cli`: the trainscope-cli executable to launch.
    JobWorker(ExperimentConfig config, int processes, std::filesystem::path runDir,
              std::filesystem::path cli, LiveBuffer& live);

    void run() override;
    void requestStop() override;
    const RunSummary& summary() const override { return summary_; }

    // Files the job's launch adds to the run directory.
    static constexpr const char* kConfigFile = run_files::kLaunchConfig;
    static constexpr const char* kLogFile = "launcher.log";

private:
    pid_t launch();
    void follow(pid_t pid);
    RunSummary finalSummary(int status);

    ExperimentConfig config_;
    int processes_;
    std::filesystem::path run_dir_;
    std::filesystem::path cli_;
    LiveBuffer& live_;
    RunSummary summary_;
    int64_t launched_ns_ = 0; // the launch config's write time (fileWriteTimeNs)
    std::atomic<bool> stop_requested_{false};
};

} // namespace ts::gui
