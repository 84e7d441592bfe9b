// Memory by category of the Trainer's own steps: parameter, gradient and
// optimizer-state bytes equal those of the tensors, the input the batch's, and
// the categories reach the step's peak.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "EngineTestSupport.h"
#include "engine/StepMemory.h"
#include "engine/Trainer.h"
#include "models/Model.h"

using namespace ts;
using namespace ts::test;

namespace {

struct TrainedSteps {
    std::vector<StepRecord> steps;
    RunSummary summary;
};

// Two steps of the tiny ResNet-18 on the CPU.
TrainedSteps trainTwoSteps(ExperimentConfig c) {
    c.max_steps = 2;
    c.val_every = 0;
    RecordingObserver obs;
    Trainer trainer(c, obs);
    const RunSummary summary = trainer.run();
    EXPECT_EQ(summary.status, RunStatus::Completed) << summary.error;
    EXPECT_EQ(obs.steps.size(), 2u);
    return {obs.steps, summary};
}

// numel * element_size over the model's parameters, as built for `c`.
int64_t parameterBytesOf(const ExperimentConfig& c) {
    int64_t bytes = 0;
    for (const torch::Tensor& p : createModel(c, c.synthetic_channels)->parameters())
        bytes += p.numel() * int64_t(p.element_size());
    return bytes;
}

int64_t batchBytesOf(const ExperimentConfig& c) {
    // float32 images [N, C, H, W] and int64 labels [N] (data/DataLoader.h).
    return int64_t(c.batch_size) * c.synthetic_channels * c.image_size * c.image_size * 4 +
           int64_t(c.batch_size) * 8;
}

} // namespace

TEST(EngineMemory, AdamStepsHoldParametersGradientsTwiceTheStateAndTheBatch) {
    auto c = tinyConfig();
    c.optimizer = "adam";
    c.lr = 1e-3;
    const TrainedSteps obs = trainTwoSteps(c);
    const int64_t parameters = parameterBytesOf(c);
    ASSERT_GT(parameters, 0);
    for (const StepRecord& s : obs.steps) {
        SCOPED_TRACE("step " + std::to_string(s.global_step));
        const MemoryByCategory& m = s.memory;
        EXPECT_EQ(m.parameter_bytes, parameters);
        EXPECT_EQ(m.gradient_bytes, parameters) << "every parameter gets a gradient";
        EXPECT_EQ(m.optimizer_state_bytes, 2 * parameters) << "exp_avg and exp_avg_sq";
        EXPECT_EQ(m.input_bytes, batchBytesOf(c));
        EXPECT_GT(m.activation_bytes, 0);
        // Loaded on this thread (workers=0), the batch is in the tracker's
        // peak, and the categories reach that peak.
        EXPECT_GE(m.total(), s.tensor_peak_bytes);
        if (m.temporary_bytes > 0) {
            EXPECT_EQ(m.total(), s.tensor_peak_bytes);
        }
    }
    // The summary keeps the step whose categories add up to the most.
    const MemoryByCategory& peak = obs.summary.peak_memory;
    EXPECT_EQ(peak.total(), std::max(obs.steps[0].memory.total(), obs.steps[1].memory.total()));
}

TEST(EngineMemory, SgdWithoutMomentumHasNoStateAndWithItOneBufferPerParameter) {
    auto c = tinyConfig();
    c.optimizer = "sgd";
    c.momentum = 0;
    const int64_t parameters = parameterBytesOf(c);
    for (const StepRecord& s : trainTwoSteps(c).steps)
        EXPECT_EQ(s.memory.optimizer_state_bytes, 0);
    c.momentum = 0.9;
    for (const StepRecord& s : trainTwoSteps(c).steps)
        EXPECT_EQ(s.memory.optimizer_state_bytes, parameters) << "momentum_buffer";
}

// Loader threads assemble the batch where the CPU tracker does not see it: its
// bytes still count as input, and the peak is raised by them.
TEST(EngineMemory, ABatchFromLoaderThreadsStillCountsAsInput) {
    auto c = tinyConfig();
    c.workers = 2;
    for (const StepRecord& s : trainTwoSteps(c).steps) {
        EXPECT_EQ(s.memory.input_bytes, batchBytesOf(c));
        EXPECT_GE(s.memory.total(), s.tensor_peak_bytes + s.memory.input_bytes);
    }
}

TEST(EngineMemory, SharedStoragesCountOnce) {
    StorageBytes bytes;
    const torch::Tensor flat = torch::zeros({100}); // 400 bytes
    bytes.add(flat.slice(0, 0, 50));
    bytes.add(flat.slice(0, 50, 100));
    bytes.add(torch::Tensor()); // e.g. a parameter without a gradient
    EXPECT_EQ(bytes.total(), 400);
    bytes.add(torch::zeros({10}, torch::kFloat64));
    EXPECT_EQ(bytes.total(), 480);
}

TEST(EngineMemory, AmsgradKeepsAThirdStateTensor) {
    std::vector<torch::Tensor> params{torch::ones({3, 4}, torch::requires_grad())};
    torch::optim::Adam adam(params, torch::optim::AdamOptions(0.1).amsgrad(true));
    EXPECT_EQ(optimizerStateBytes(adam), 0) << "no state before the first step";
    params[0].sum().backward();
    adam.step();
    EXPECT_EQ(optimizerStateBytes(adam), 3 * 12 * 4);
}
