#pragma once
// The one experiment description shared by CLI, GUI, engine and run records.
// Plain values only (no torch, no Qt) so every layer can include it cheaply.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ts {

// torch.profiler-style schedule: skip_first steps, then cycles of
// wait -> warmup -> active, `repeat` times (0 = until the run ends).
struct ProfileConfig {
    bool enabled = false;
    int skip_first = 0;
    int wait = 0;
    int warmup = 2;
    int active = 3;
    int repeat = 1;
    // >= 0: ignore the schedule and profile exactly one step after this many
    // warm-up steps (the seeds' "--profile-one-step --warmup-iters N").
    int one_step_after = -1;
    bool record_shapes = true;
    bool profile_memory = true;
    bool with_flops = true;
    // Traces above this many events are truncated with a note in the file,
    // so viewers (Perfetto, chrome://tracing) can still open them.
    int64_t max_trace_events = 1000000;
    // Who records a window: "kineto" (LibTorch's profiler, as torch.profiler;
    // needs a LibTorch with Kineto), "trainscope" (Trainscope's own collector)
    // or "auto" (Kineto where LibTorch has it).
    std::string recorder = "auto";
};

struct ExperimentConfig {
    std::string name = "experiment"; // free label shown in run lists
    std::string model = "resnet18";  // resnet18 | resnet34 | resnet50 | torchscript
    std::string model_path;          // TorchScript module when model == torchscript
    std::string stem = "cifar";      // cifar | imagenet
    int num_classes = 10;
    std::string dataset = "fashion-mnist"; // fashion-mnist | cifar10 | cifar100 | synthetic
    std::string data_dir;                  // empty: the dataset's default location
    int64_t synthetic_samples = 2048;      // synthetic dataset size (train; val is 1/4)
    int image_size = 32;                   // synthetic images are image_size x image_size
    int synthetic_channels = 3;
    std::string device = "cpu";     // cpu | cuda | cuda:N
    std::string precision = "fp32"; // fp32 | bf16 | fp16
    int batch_size = 64;
    int epochs = 1;
    int64_t max_steps = 0;         // cap on train steps per epoch, 0 = whole epoch
    int64_t val_max_steps = 0;     // cap on validation batches, 0 = whole split
    std::string optimizer = "sgd"; // sgd | adam | adamw
    double lr = 0.05;
    double momentum = 0.9;
    double weight_decay = 5e-4;
    bool fused_optimizer = true;     // SGD/Adam/AdamW as one fused kernel (LibTorch 2.4+)
    std::string schedule = "cosine"; // constant | cosine | step
    int64_t warmup_steps = 0;        // linear warm-up, in optimizer steps
    int lr_step_epochs = 30;         // `step` schedule: decay every N epochs
    double lr_gamma = 0.1;           // `step` schedule: decay factor
    double label_smoothing = 0.0;
    int workers = 0;         // loader threads; 0 = load on the training thread
    int prefetch = 2;        // batches queued per worker
    bool pin_memory = false; // CUDA only
    int threads = 0;         // intra-op threads, 0 = the usable cores (ThreadChoice.h)
    bool channels_last = false;
    bool cudnn_benchmark = false;
    bool deterministic = false;
    uint64_t seed = 42;
    bool augment = true;            // random crop (pad 4) + horizontal flip
    int val_every = 1;              // validate every N epochs, 0 = never
    int checkpoint_every = 0;       // also keep epoch_N.pt every N epochs, 0 = off
    std::string resume;             // checkpoint to continue from
    std::string pretrained;         // state_dict (torch.save) or TorchScript weights
    int warmup_steps_excluded = 5;  // first steps left out of steady-state medians
    bool retain_host_memory = true; // keep freed host memory for reuse during the run
    // A NaN or infinite loss: "stop" fails the run at that step (the weights
    // before it are kept), "skip" leaves out that step's update and goes on.
    std::string nonfinite_loss = "stop";
    ProfileConfig profile;
};

// One problem found in a config: the key (dotted for nested ones, e.g.
// "profile.active"), the offending value as text, and a sentence.
struct ConfigIssue {
    std::string key;
    std::string value;
    std::string message;
};

// Empty when this machine can run `precision` on `device`, else the reason.
// A parameter because answering needs LibTorch, which this layer does not
// link: env/ValidateConfig.h passes the real check (env/Devices.h).
using DeviceSupportCheck =
    std::function<std::string(const std::string& device, const std::string& precision)>;

// Semantic checks that need no file system access beyond existence checks of
// the files the config names. Empty result = valid.
std::vector<ConfigIssue> validateConfigWith(const ExperimentConfig& config,
                                            const DeviceSupportCheck& device_support);

// The keys the config understands (top level and "profile.*"), in display order.
const std::vector<std::string>& configKeys();

// Allowed values of enumerated keys (empty for free-form ones).
const std::vector<std::string>& allowedValues(const std::string& key);

} // namespace ts
