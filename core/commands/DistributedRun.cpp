#include "commands/DistributedRun.h"

#include <unistd.h>

#include <optional>

#include "commands/Cancellation.h"
#include "commands/Commands.h"
#include "commands/Guarded.h"
#include "commands/ProgressPrinter.h"
#include "distributed/Communicator.h"
#include "engine/Trainer.h"
#include "report/RunDirectory.h"

namespace ts {
namespace {

constexpr const char* kRunDirKey = "trainscope/run_dir";

// Rank 0's records of the whole job: the ranks step in lockstep (every step
// ends with the same allreduce), so the job's rate at a step is world_size
// times rank 0's.
class GlobalView : public TrainerObserver {
public:
    GlobalView(TrainerObserver& next, int world_size) : next_(next), world_(world_size) {}
    void onRunStarted(const RunInfo& info) override { next_.onRunStarted(info); }
    void onStep(const StepRecord& step) override {
        StepRecord global = step;
        global.images_per_sec *= world_;
        next_.onStep(global);
    }
    void onEpoch(const EpochRecord& epoch) override { next_.onEpoch(epoch); }
    void onMessage(LogLevel level, const std::string& text) override {
        next_.onMessage(level, text);
    }
    void onRunFinished(const RunSummary& summary) override { next_.onRunFinished(summary); }

private:
    TrainerObserver& next_;
    int world_;
};

// One rank's own records: its summary's rate is its own share.
class RankView : public TrainerObserver {
public:
    RankView(TrainerObserver& next, int rank) : next_(next), rank_(rank) {}
    void onRunStarted(const RunInfo& info) override { next_.onRunStarted(info); }
    void onStep(const StepRecord& step) override { next_.onStep(step); }
    void onEpoch(const EpochRecord& epoch) override { next_.onEpoch(epoch); }
    void onProfile(const ProfileCapture& capture) override { next_.onProfile(capture); }
    void onMessage(LogLevel level, const std::string& text) override {
        next_.onMessage(level, text);
    }
    void onRunFinished(const RunSummary& summary) override {
        RunSummary own = summary;
        for (const auto& r : summary.distributed.ranks)
            if (r.rank == rank_) own.median_images_per_sec = r.median_images_per_sec;
        next_.onRunFinished(own);
    }

private:
    TrainerObserver& next_;
    int rank_;
};

std::filesystem::path agreeOnRunDirectory(const RunOptions& options, const ExperimentConfig& config,
                                          Communicator& comm) {
    std::filesystem::path dir = options.out_dir;
    if (comm.rank() == 0) {
        if (dir.empty()) dir = runDirectoryFor(options.runs_root, config);
        comm.publish(kRunDirKey, dir.string());
    } else if (dir.empty()) {
        dir = comm.lookup(kRunDirKey);
    }
    return dir;
}

} // namespace

int runAsRank(const RunOptions& options, const DistributedLaunch& launch, std::ostream& out,
              std::ostream& err) {
    return runGuarded(err, [&] {
        const ExperimentConfig config = resolveConfig(options.source);
        std::shared_ptr<Communicator> comm = Communicator::connect(launch);
        const std::filesystem::path dir = agreeOnRunDirectory(options, config, *comm);
        const int rank = comm->rank();
        const auto rank_dir = dir / "ranks" / std::to_string(rank);
        std::filesystem::create_directories(rank_dir);

        RunRecorder rank_recorder(rank_dir);
        RankView rank_view(rank_recorder, rank);
        ObserverList observers;
        std::optional<RunRecorder> job_recorder;
        std::optional<GlobalView> job_view;
        std::optional<ProgressPrinter> progress;
        if (rank == 0) {
            // The job's records first: a job resumed in place whose records
            // cannot be continued is refused before rank 0's are changed.
            job_recorder.emplace(dir);
            job_view.emplace(*job_recorder, comm->worldSize());
            observers.add(&*job_view);
        }
        observers.add(&rank_view);
        if (rank == 0) {
            progress.emplace(err, options.progress && ::isatty(STDERR_FILENO));
            if (!options.json || options.progress) observers.add(&*progress);
        }
        Trainer trainer(config, observers);
        trainer.setCommunicator(comm);
        if (rank == 0) trainer.setCheckpointDir(dir.string());
        CancelRegistration cancel([&trainer] { trainer.requestCancel(); });
        const RunSummary summary = trainer.run();
        if (rank == 0) {
            if (options.json) {
                // The job's summary as its run.json holds it: the whole job
                // when it was resumed in place.
                const RunSummary job = job_recorder->recordedSummary().value_or(summary);
                nlohmann::json j = toJson(job);
                j["run_dir"] = dir.string();
                j["distributed"] = toJson(job.distributed);
                out << j.dump(2) << "\n";
            } else {
                out << "run saved to " << dir.string() << "\n";
            }
        }
        return summary.status == RunStatus::Failed ? exit_code::kFailure : exit_code::kOk;
    });
}

} // namespace ts
