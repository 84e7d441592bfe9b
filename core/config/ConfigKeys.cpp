#include "config/ConfigKeys.h"

namespace ts::config_keys {

using C = ExperimentConfig;
using P = ProfileConfig;

const std::vector<KeySpec>& topLevelKeys() {
    static const std::vector<KeySpec> keys = {
        {"name", &C::name, {}, "label shown in run lists"},
        {"model", &C::model, {"resnet18", "resnet34", "resnet50", "torchscript"}, "network"},
        {"model_path", &C::model_path, {}, "TorchScript file when model is torchscript"},
        {"stem", &C::stem, {"cifar", "imagenet"}, "cifar: 3x3 conv, no max-pool"},
        {"num_classes", &C::num_classes, {}, "classifier outputs"},
        {"dataset", &C::dataset, {"fashion-mnist", "cifar10", "cifar100", "synthetic"}, ""},
        {"data_dir", &C::data_dir, {}, "dataset folder (empty: default location)"},
        {"synthetic_samples", &C::synthetic_samples, {}, "synthetic training images"},
        {"image_size", &C::image_size, {}, "synthetic image side"},
        {"synthetic_channels", &C::synthetic_channels, {}, "synthetic image channels"},
        {"device", &C::device, {}, "cpu, cuda or cuda:N"},
        {"precision", &C::precision, {"fp32", "bf16", "fp16"}, "autocast precision"},
        {"batch_size", &C::batch_size, {}, ""},
        {"epochs", &C::epochs, {}, ""},
        {"max_steps", &C::max_steps, {}, "cap on steps per epoch, 0 = none"},
        {"val_max_steps", &C::val_max_steps, {}, "cap on validation batches, 0 = none"},
        {"optimizer", &C::optimizer, {"sgd", "adam", "adamw"}, ""},
        {"lr", &C::lr, {}, "peak learning rate"},
        {"momentum", &C::momentum, {}, "SGD momentum"},
        {"weight_decay", &C::weight_decay, {}, ""},
        {"fused_optimizer",
         &C::fused_optimizer,
         {},
         "the optimizer's update as one fused kernel where LibTorch has it (2.4+)"},
        {"schedule", &C::schedule, {"constant", "cosine", "step"}, "learning-rate schedule"},
        {"warmup_steps", &C::warmup_steps, {}, "linear warm-up steps"},
        {"lr_step_epochs", &C::lr_step_epochs, {}, "step schedule: epochs per decay"},
        {"lr_gamma", &C::lr_gamma, {}, "step schedule: decay factor"},
        {"label_smoothing", &C::label_smoothing, {}, "0..1"},
        {"workers", &C::workers, {}, "loader threads"},
        {"prefetch", &C::prefetch, {}, "batches queued per worker"},
        {"pin_memory", &C::pin_memory, {}, "page-locked batches (CUDA)"},
        {"threads", &C::threads, {}, "intra-op threads, 0 = the usable cores (CPU affinity)"},
        {"channels_last", &C::channels_last, {}, "NHWC memory format"},
        {"cudnn_benchmark", &C::cudnn_benchmark, {}, "cuDNN autotuner"},
        {"deterministic", &C::deterministic, {}, "deterministic algorithms"},
        {"seed", &C::seed, {}, ""},
        {"augment", &C::augment, {}, "random crop + flip"},
        {"val_every", &C::val_every, {}, "validate every N epochs, 0 = never"},
        {"checkpoint_every", &C::checkpoint_every, {}, "keep epoch_N.pt every N epochs"},
        {"resume", &C::resume, {}, "checkpoint to resume from"},
        {"pretrained", &C::pretrained, {}, "weights file (state_dict or TorchScript)"},
        {"warmup_steps_excluded",
         &C::warmup_steps_excluded,
         {},
         "first steps of an epoch left out of steady-state medians"},
        {"retain_host_memory",
         &C::retain_host_memory,
         {},
         "reuse freed host memory instead of page-faulting it back every step"},
        {"nonfinite_loss",
         &C::nonfinite_loss,
         {"stop", "skip"},
         "a NaN or infinite loss: stop the run there, or skip that step's update"},
    };
    return keys;
}

const std::vector<ProfileKeySpec>& profileKeys() {
    static const std::vector<ProfileKeySpec> keys = {
        {"enabled", &P::enabled, "collect operators and memory"},
        {"skip_first", &P::skip_first, "steps ignored before the first cycle"},
        {"wait", &P::wait, "idle steps at the start of each cycle"},
        {"warmup", &P::warmup, "traced-but-discarded steps per cycle"},
        {"active", &P::active, "recorded steps per cycle"},
        {"repeat", &P::repeat, "cycles, 0 = until the end"},
        {"one_step_after", &P::one_step_after, "profile exactly one step after N, -1 = off"},
        {"record_shapes", &P::record_shapes, "record input shapes"},
        {"profile_memory", &P::profile_memory, "record allocations"},
        {"with_flops", &P::with_flops, "estimate FLOPs"},
        {"max_trace_events", &P::max_trace_events, "cap on events kept per window"},
        {"recorder",
         &P::recorder,
         "who records: LibTorch's Kineto, Trainscope's collector, or Kineto where present",
         {"auto", "kineto", "trainscope"}},
    };
    return keys;
}

} // namespace ts::config_keys
