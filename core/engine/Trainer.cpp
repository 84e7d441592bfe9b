#include "engine/Trainer.h"

#include <chrono>
#include <cmath>
#include <mutex>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "config/ConfigError.h"
#include "config/ConfigJson.h"
#include "config/ResumeCheckpoint.h"
#include "config/ThreadChoice.h"
#include "data/DataLoader.h"
#include "engine/Checkpoint.h"
#include "engine/DataParallel.h"
#include "engine/Evaluate.h"
#include "engine/LossScaler.h"
#include "engine/LrSchedule.h"
#include "engine/OptimizerFactory.h"
#include "engine/StepMemory.h"
#include "env/Environment.h"
#include "env/TorchCompat.h"
#include "env/ValidateConfig.h"
#include "models/Model.h"
#include "models/ModelSummary.h"
#include "profiling/MemoryTracker.h"
#include "profiling/ProfileSession.h"
#include "records/SummaryBuilder.h"
#include "util/CpuAffinity.h"
#include "util/ErrorText.h"
#include "util/HostMemoryRetention.h"
#include "util/ProcessMemory.h"

namespace ts {
namespace {

// Gradients are set to none rather than zeroed (PyTorch 2.x's default,
// zero_grad(set_to_none=True)): no memset over every gradient each step, and
// the next backward's AccumulateGrad adopts the new gradient instead of adding
// it into zeros. Optimizers and the loss scaler skip undefined gradients.
// Returns the bytes of the gradients it released, counted here rather than in
// a walk of their own.
int64_t clearGradients(torch::optim::Optimizer& optimizer) {
    StorageBytes released;
    for (auto& group : optimizer.param_groups())
        for (auto& p : group.params()) {
            released.add(p.grad());
            p.mutable_grad().reset();
        }
    return released.total();
}

using Clock = std::chrono::steady_clock;

double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// Sums over one epoch's training steps.
struct EpochTotals {
    double loss_sum = 0;
    int64_t correct = 0;
    int64_t samples = 0;
    int64_t steps = 0;
    double seconds = 0;
};

} // namespace

struct Trainer::Impl {
    ExperimentConfig config;
    TrainerObserver& observer;
    std::atomic<bool> cancel{false}; // asked for (any thread)
    // Data-parallel: the ranks stop only at a step boundary they all agree on,
    // so one rank's request never leaves the others waiting in a collective.
    bool agreed_stop = false;
    std::string checkpoint_dir;
    std::shared_ptr<Communicator> communicator;
    std::unique_ptr<DataParallel> parallel;

    torch::Device device{torch::kCPU};
    ImageDataset train_set, val_set;
    std::unique_ptr<DataLoader> train_loader, val_loader;
    std::mutex loader_mutex; // guards the loader pointers against requestCancel()
    std::unique_ptr<Model> model;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::string optimizer_implementation;
    std::unique_ptr<LossScaler> scaler;
    ThreadChoice threads;
    std::unique_ptr<LrSchedule> schedule;
    std::shared_ptr<MemoryTracker> memory = MemoryTracker::create();
    std::unique_ptr<StepMemory> step_memory;
    std::unique_ptr<ProfileSession> profiler;
    CheckpointPosition position;
    Clock::time_point run_start;

    Impl(ExperimentConfig c, TrainerObserver& o) : config(std::move(c)), observer(o) {}

    void setupRuntime();
    void setupData();
    void setupModel();
    RunInfo makeRunInfo() const;
    bool stopping() const { return parallel ? agreed_stop : cancel.load(); }
    bool agreeToStop() {
        if (!parallel) return cancel.load();
        if (!agreed_stop) agreed_stop = parallel->agreeToStop(cancel.load());
        return agreed_stop;
    }
    void trainEpoch(int epoch, SummaryBuilder& summary, EpochTotals& totals);
    bool trainStep(int epoch, int64_t step, SummaryBuilder& summary, EpochTotals& totals);
    void endEpoch(int epoch, const EpochTotals& totals, SummaryBuilder& summary);
    void sync() {
        if (device.is_cuda()) compat::cudaSynchronize(device.index() < 0 ? 0 : device.index());
    }
    void writeCheckpoint(const std::string& file, int epoch, int64_t step_in_epoch);
    void checkResumeWorldSize(const std::string& checkpoint) const;
    void noteNonFiniteLoss(int epoch, int64_t step, double loss);
    int64_t nonfinite_steps = 0;
    void gatherRanks(const SummaryBuilder& summary, RunSummary& result);
};

void Trainer::Impl::setupRuntime() {
    device = torch::Device(config.device);
    // Local ranks share this machine's cores.
    const int local_ranks = communicator ? communicator->launch().local_world_size : 1;
    threads = chooseIntraOpThreads(config.threads, config.workers, usableCores(), local_ranks);
    at::set_num_threads(threads.threads);
    torch::manual_seed(config.seed);
    if (device.is_cuda()) {
        torch::cuda::manual_seed_all(config.seed);
        compat::setCudnnBenchmark(config.cudnn_benchmark);
    } else if (config.cudnn_benchmark) {
        observer.onMessage(LogLevel::Warning, "cudnn_benchmark has no effect on " + config.device);
    }
    at::globalContext().setDeterministicAlgorithms(config.deterministic, /*warn_only=*/true);
    if (config.deterministic) at::globalContext().setDeterministicCuDNN(true);
    if (config.precision == "fp16") scaler = std::make_unique<LossScaler>(device);
}

void Trainer::Impl::setupData() {
    train_set = loadDataset(config, Split::Train);
    val_set = loadDataset(config, Split::Test);
    LoaderOptions train;
    train.batch_size = config.batch_size;
    train.shuffle = true;
    train.augment = config.augment;
    train.workers = config.workers;
    train.prefetch = config.prefetch;
    train.pin_memory = config.pin_memory;
    train.channels_last = config.channels_last;
    train.seed = config.seed;
    train.max_batches = config.max_steps;
    if (communicator) {
        train.shard_rank = communicator->rank();
        train.shard_count = communicator->worldSize();
    }
    LoaderOptions val = train;
    val.shuffle = false;
    val.augment = false;
    val.drop_last = false;
    val.shard_pad = false; // disjoint shards: the summed metrics cover the split once
    val.max_batches = config.val_max_steps;
    std::lock_guard<std::mutex> lock(loader_mutex);
    train_loader = std::make_unique<DataLoader>(train_set, train);
    val_loader = std::make_unique<DataLoader>(val_set, val);
    if (train_loader->batchesPerEpoch() == 0)
        throw ConfigError(
            "batch_size " + std::to_string(config.batch_size) +
            " is larger than the training set (" + std::to_string(train_set.size()) + " images" +
            (communicator ? ", split over " + std::to_string(communicator->worldSize()) + " ranks"
                          : std::string()) +
            ")");
}

void Trainer::Impl::setupModel() {
    model = createModel(config, train_set.channels);
    if (!config.pretrained.empty()) {
        const auto weights = isTrainscopeCheckpoint(config.pretrained)
                                 ? readCheckpointWeights(config.pretrained)
                                 : readStateDict(config.pretrained);
        observer.onMessage(LogLevel::Info, loadPretrained(*model, weights, config.pretrained));
    }
    model->to(device, config.channels_last);
    model->train(true);
    MadeOptimizer made = makeOptimizer(config, model->parameters());
    optimizer = std::move(made.optimizer);
    optimizer_implementation = std::move(made.implementation);
    schedule = std::make_unique<LrSchedule>(config, train_loader->batchesPerEpoch());
    if (!config.resume.empty()) {
        // A run directory stands for its newest checkpoint.
        const std::string checkpoint = resumeCheckpoint(config.resume).string();
        position = loadCheckpoint(checkpoint, *model, *optimizer, scaler.get());
        checkResumeWorldSize(checkpoint);
        observer.onMessage(LogLevel::Info, "resumed from " + checkpoint + " at epoch " +
                                               std::to_string(position.epoch + 1) + ", step " +
                                               std::to_string(position.global_step));
    }
    if (communicator) parallel = std::make_unique<DataParallel>(communicator, *model);
    step_memory = std::make_unique<StepMemory>(memory, device.is_cuda(),
                                               device.index() < 0 ? 0 : device.index(),
                                               model->parameters(), *optimizer);
}

// Stops the run (throws; the weights before this step are kept) or, with
// nonfinite_loss=skip, warns for the first few such steps; every skipped one
// is counted in the step records and the summary's skipped steps.
void Trainer::Impl::noteNonFiniteLoss(int epoch, int64_t step, double loss) {
    constexpr int64_t kWarnings = 5;
    const std::string where = "step " + std::to_string(position.global_step) + " (epoch " +
                              std::to_string(epoch + 1) + ", step " + std::to_string(step + 1) +
                              " of the epoch)";
    const std::string value = std::isfinite(loss) ? "finite here but not on another rank"
                              : std::isnan(loss)  ? "NaN"
                              : loss > 0          ? "+infinity"
                                                  : "-infinity";
    if (config.nonfinite_loss != "skip")
        throw std::runtime_error(where + ": the loss is " + value +
                                 "; the run stops here (nonfinite_loss=stop). Lower lr, add "
                                 "warmup_steps, or set nonfinite_loss=skip to skip such steps.");
    if (++nonfinite_steps <= kWarnings)
        observer.onMessage(LogLevel::Warning,
                           where + ": the loss is " + value + "; its update was skipped" +
                               (nonfinite_steps == kWarnings
                                    ? " (further such steps are counted as skipped, not reported)"
                                    : ""));
}

// A checkpoint's position counts per-rank steps over per-rank shards: it
// continues the same epoch only with the same number of ranks.
void Trainer::Impl::checkResumeWorldSize(const std::string& checkpoint) const {
    const int world = communicator ? communicator->worldSize() : 1;
    if (position.world_size == world) return;
    auto processes = [](int n) {
        return n == 1 ? std::string("one process") : std::to_string(n) + " ranks";
    };
    throw ConfigError(
        "resume: " + checkpoint + " was written by a job of " + processes(position.world_size) +
        " and this job has " + processes(world) +
        "; resume it with the same number of processes (--nproc-per-node x --nnodes = " +
        std::to_string(position.world_size) +
        "), or start a new run from its weights with --set pretrained=" + checkpoint);
}

RunInfo Trainer::Impl::makeRunInfo() const {
    RunInfo info;
    info.config = config;
    info.env = probeEnvironment();
    info.env.threads_choice = threads.reason;
    info.train_samples = train_set.size();
    info.val_samples = val_set.size();
    info.steps_per_epoch = train_loader->batchesPerEpoch();
    for (const auto& p : model->parameters())
        info.parameters += p.numel();
    if (config.model != "torchscript") {
        info.forward_macs = summarizeModel(config.model, config.stem, train_set.channels,
                                           train_set.height, config.num_classes)
                                .total_macs;
    }
    info.start_epoch = position.epoch;
    info.start_global_step = position.global_step;
    info.optimizer_implementation = optimizer_implementation;
    return info;
}

bool Trainer::Impl::trainStep(int epoch, int64_t step, SummaryBuilder& summary,
                              EpochTotals& totals) {
    const int64_t global = position.global_step;
    profiler->stepBegin(global);
    step_memory->beginStep();
    const int cuda_index = device.index() < 0 ? 0 : device.index();
    const int64_t faults_before = processPageFaults();
    const auto t0 = Clock::now();
    std::optional<Batch> batch;
    {
        ProfileSession::Range range(profiler.get(), "data");
        batch = train_loader->next();
    }
    if (!batch) {
        profiler->stepEnd(global, observer, /*found_batch=*/false);
        return false;
    }
    const auto t1 = Clock::now();
    torch::Tensor images, labels;
    {
        ProfileSession::Range range(profiler.get(), "copy");
        images = batch->images.to(device, /*non_blocking=*/config.pin_memory);
        labels = batch->labels.to(device, /*non_blocking=*/config.pin_memory);
        sync();
    }
    step_memory->afterCopy(images, labels);
    const auto t2 = Clock::now();
    torch::Tensor logits, loss;
    {
        ProfileSession::Range range(profiler.get(), "forward");
        if (parallel) parallel->syncBuffers();
        AutocastScope autocast(device, config.precision);
        logits = model->forward(images);
        loss = classificationLoss(logits, labels, config.label_smoothing);
        sync();
    }
    step_memory->afterForward();
    const double loss_value = loss.item<double>();
    // Agreed by all ranks, so that they all take (or skip) the same collectives.
    bool nonfinite = !std::isfinite(loss_value);
    if (parallel) nonfinite = parallel->anyRank(nonfinite);
    if (nonfinite) noteNonFiniteLoss(epoch, step, loss_value);
    const auto t3 = Clock::now();
    if (!nonfinite) {
        ProfileSession::Range range(profiler.get(), "backward");
        if (parallel) parallel->beginBackward();
        (scaler ? scaler->scale(loss) : loss).backward();
        sync();
    }
    ReduceTiming reduced;
    if (parallel && !nonfinite) {
        ProfileSession::Range range(profiler.get(), "allreduce wait");
        reduced = parallel->finishBackward();
        sync();
    }
    const auto t4 = Clock::now();
    const double lr = schedule->at(global);
    bool skipped = nonfinite;
    int64_t gradient_bytes = 0;
    if (!nonfinite) {
        ProfileSession::Range range(profiler.get(), "optimizer");
        setLearningRate(*optimizer, lr);
        if (scaler) {
            skipped = !scaler->unscale(model->parameters());
            if (!skipped) optimizer->step();
            scaler->update();
        } else {
            optimizer->step();
        }
        gradient_bytes = clearGradients(*optimizer);
        sync();
    }
    const auto t5 = Clock::now();

    StepRecord r;
    r.epoch = epoch;
    r.step = step;
    r.global_step = global;
    r.batch_size = static_cast<int>(labels.size(0));
    r.loss = loss_value;
    r.correct = logits.argmax(1).eq(labels).sum().item<int64_t>();
    r.lr = lr;
    r.skipped = skipped;
    if (scaler) r.loss_scale = scaler->currentScale();
    r.tensor_bytes = memory->liveBytes();
    r.tensor_peak_bytes = memory->peakBytes();
    r.rss_bytes = currentRssBytes();
    if (device.is_cuda()) {
        const auto m = compat::cudaMemory(cuda_index);
        r.device_bytes = m.allocated;
        r.device_peak_bytes = m.peak_allocated;
    }
    r.memory = step_memory->endStep(gradient_bytes);
    r.profiled = profiler->recording();
    r.page_faults = processPageFaults() - faults_before;
    r.allreduce_ms = reduced.allreduce_ms;
    r.comm_wait_ms = reduced.comm_wait_ms;
    const auto t6 = Clock::now();
    r.phases.data_ms = msBetween(t0, t1);
    r.phases.copy_ms = msBetween(t1, t2);
    r.phases.forward_ms = msBetween(t2, t3);
    r.phases.backward_ms = msBetween(t3, t4);
    r.phases.optimizer_ms = msBetween(t4, t5);
    r.phases.other_ms = msBetween(t5, t6);
    r.step_ms = msBetween(t0, t6);
    r.images_per_sec = r.step_ms > 0 ? r.batch_size * 1000.0 / r.step_ms : 0;
    r.wall_s = std::chrono::duration<double>(t6 - run_start).count();

    if (!nonfinite) { // a skipped non-finite step stays out of the epoch's metrics
        totals.loss_sum += r.loss * r.batch_size;
        totals.correct += r.correct;
        totals.samples += r.batch_size;
    }
    totals.steps++;
    totals.seconds += r.step_ms / 1000.0;
    position.global_step++;
    position.step_in_epoch = step + 1;
    summary.addStep(r);
    observer.onStep(r);
    profiler->stepEnd(global, observer);
    return true;
}

void Trainer::Impl::trainEpoch(int epoch, SummaryBuilder& summary, EpochTotals& totals) {
    train_loader->startEpoch(epoch);
    int64_t step = 0;
    if (epoch == position.epoch && position.step_in_epoch > 0) {
        step = position.step_in_epoch; // resumed mid-epoch
        train_loader->skip(step);
    }
    while (!agreeToStop() && trainStep(epoch, step, summary, totals))
        ++step;
}

void Trainer::Impl::endEpoch(int epoch, const EpochTotals& totals, SummaryBuilder& summary) {
    EpochRecord e;
    e.epoch = epoch;
    e.steps = totals.steps;
    e.epoch_time_s = totals.seconds;
    EpochTotals all = totals; // over every rank in a data-parallel run
    if (parallel) parallel->reduceTotals(all.loss_sum, all.correct, all.samples);
    e.images_per_sec = all.seconds > 0 ? all.samples / all.seconds : 0;
    e.train_loss = all.samples ? all.loss_sum / all.samples : NAN;
    e.train_accuracy = all.samples ? double(all.correct) / all.samples : NAN;
    e.lr = schedule->at(std::max<int64_t>(0, position.global_step - 1));
    const bool last = epoch + 1 == config.epochs;
    if (config.val_every > 0 && ((epoch + 1) % config.val_every == 0 || last)) {
        auto result = evaluateModel(*model, *val_loader, 0, device, config.precision,
                                    config.label_smoothing, &cancel);
        if (parallel) result = parallel->reduce(result);
        e.has_val = result.samples > 0;
        e.val_loss = result.loss;
        e.val_accuracy = result.accuracy;
        e.val_time_s = result.seconds;
    }
    summary.addEpoch(e);
    position.epoch = epoch + 1;
    position.step_in_epoch = 0;
    // Recorded before its checkpoints: a run killed while writing epoch_N.pt
    // resumes from best.pt at the same position, and its records must already
    // hold the epoch that checkpoint follows.
    observer.onEpoch(e);
    if (e.has_val && e.val_accuracy > position.best_val_accuracy) {
        position.best_val_accuracy = e.val_accuracy;
        writeCheckpoint("best.pt", position.epoch, 0);
    }
    if (config.checkpoint_every > 0 && (epoch + 1) % config.checkpoint_every == 0)
        writeCheckpoint("epoch_" + std::to_string(epoch + 1) + ".pt", position.epoch, 0);
}

void Trainer::Impl::writeCheckpoint(const std::string& file, int epoch, int64_t step_in_epoch) {
    if (checkpoint_dir.empty() || (parallel && parallel->rank() != 0)) return;
    CheckpointPosition at = position;
    at.epoch = epoch;
    at.step_in_epoch = step_in_epoch;
    at.world_size = parallel ? parallel->worldSize() : 1;
    saveCheckpoint(std::filesystem::path(checkpoint_dir) / file, *model, *optimizer, scaler.get(),
                   at, configToJson(config).dump());
}

// Every rank's figures into the summary; the global rate is their sum. After
// a failure a rank may be gone, so each rank then reports only itself.
void Trainer::Impl::gatherRanks(const SummaryBuilder& summary, RunSummary& result) {
    try {
        result.distributed =
            parallel->gather(summary.rankFigures(), result.status != RunStatus::Failed);
    } catch (const std::exception& e) {
        observer.onMessage(LogLevel::Warning,
                           std::string("the ranks' figures could not be gathered: ") + e.what());
        result.distributed = parallel->gather(summary.rankFigures(), false);
    }
    if (const auto rate = jobImagesPerSec(result.distributed)) result.median_images_per_sec = *rate;
}

Trainer::Trainer(ExperimentConfig config, TrainerObserver& observer)
    : impl_(std::make_unique<Impl>(std::move(config), observer)) {
    auto issues = validateConfig(impl_->config);
    if (!issues.empty()) throw ConfigError("experiment \"" + impl_->config.name + "\"", issues);
}

Trainer::~Trainer() = default;

void Trainer::setCheckpointDir(const std::string& dir) {
    impl_->checkpoint_dir = dir;
}

void Trainer::setCommunicator(std::shared_ptr<Communicator> communicator) {
    impl_->communicator = std::move(communicator);
}

void Trainer::requestCancel() {
    impl_->cancel.store(true);
    // A data-parallel rank must take its remaining batches until the ranks
    // agree to stop, so its loader is not cancelled.
    if (impl_->communicator) return;
    std::lock_guard<std::mutex> lock(impl_->loader_mutex);
    if (impl_->train_loader) impl_->train_loader->cancel();
}

bool Trainer::cancelRequested() const {
    return impl_->cancel.load();
}

RunSummary Trainer::run() {
    auto& s = *impl_;
    s.run_start = Clock::now();
    const HostMemoryRetention retention(s.config.retain_host_memory);
    MemoryTracker::Scope memory_scope(s.memory);
    s.setupRuntime();
    s.setupData();
    s.setupModel();
    s.profiler = std::make_unique<ProfileSession>(s.config.profile, s.device.is_cuda(), s.memory);
    if (s.communicator)
        s.profiler->setDistributedInfo(nlohmann::json{
            {"backend", s.communicator->backend()},
            {"rank", s.communicator->rank()},
            {"world_size",
             s.communicator->worldSize()}}.dump());
    s.observer.onRunStarted(s.makeRunInfo());

    SummaryBuilder summary(s.config.warmup_steps_excluded);
    RunStatus status = RunStatus::Completed;
    std::string error;
    try {
        for (int epoch = s.position.epoch; epoch < s.config.epochs && !s.stopping(); ++epoch) {
            EpochTotals totals;
            s.trainEpoch(epoch, summary, totals);
            if (s.stopping()) break;
            s.endEpoch(epoch, totals, summary);
        }
        if (s.stopping()) status = RunStatus::Cancelled;
    } catch (const std::exception& e) {
        status = RunStatus::Failed;
        error = withoutTorchFrames(e.what());
        s.observer.onMessage(LogLevel::Error, error);
    }
    s.profiler->finish(s.observer);
    try {
        if (status != RunStatus::Failed)
            s.writeCheckpoint("final.pt", s.position.epoch, s.position.step_in_epoch);
    } catch (const std::exception& e) {
        s.observer.onMessage(LogLevel::Error, std::string("final checkpoint: ") + e.what());
    }
    const double total = std::chrono::duration<double>(Clock::now() - s.run_start).count();
    RunSummary result = summary.build(status, error, total);
    result.peak_rss_bytes = std::max(result.peak_rss_bytes, peakRssBytes());
    if (s.parallel) s.gatherRanks(summary, result);
    s.observer.onRunFinished(result);
    return result;
}

} // namespace ts
