#include "config/ExperimentConfig.h"

#include <algorithm>
#include <filesystem>
#include <regex>

#include "config/ConfigError.h"
#include "config/ConfigKeys.h"
#include "config/ResumeCheckpoint.h"

namespace ts {
namespace {

class IssueList {
public:
    template <typename Value>
    void check(bool ok, const std::string& key, const Value& value, const std::string& message) {
        if (ok) return;
        if constexpr (std::is_same_v<Value, std::string>)
            issues_.push_back({key, "\"" + value + "\"", message});
        else if constexpr (std::is_same_v<Value, bool>)
            issues_.push_back({key, value ? "true" : "false", message});
        else
            issues_.push_back({key, std::to_string(value), message});
    }
    std::vector<ConfigIssue> take() { return std::move(issues_); }

private:
    std::vector<ConfigIssue> issues_;
};

bool isValidDeviceName(const std::string& device) {
    static const std::regex pattern("cpu|cuda(:[0-9]+)?");
    return std::regex_match(device, pattern);
}

void checkOneOf(IssueList& issues, const std::string& key, const std::string& value,
                const std::vector<std::string>& allowed) {
    if (allowed.empty()) return;
    std::string list;
    for (const auto& v : allowed)
        list += (list.empty() ? "" : ", ") + v;
    issues.check(std::find(allowed.begin(), allowed.end(), value) != allowed.end(), key, value,
                 "must be one of " + list);
}

void checkEnumerations(const ExperimentConfig& c, IssueList& issues) {
    for (const auto& spec : config_keys::topLevelKeys())
        if (!spec.allowed.empty())
            checkOneOf(issues, spec.key, c.*std::get<std::string ExperimentConfig::*>(spec.member),
                       spec.allowed);
    for (const auto& spec : config_keys::profileKeys())
        if (!spec.allowed.empty())
            checkOneOf(issues, std::string("profile.") + spec.key,
                       c.profile.*std::get<std::string ProfileConfig::*>(spec.member),
                       spec.allowed);
}

void checkFile(IssueList& issues, const char* key, const std::string& path, bool required) {
    if (path.empty()) {
        issues.check(!required, key, path, "a file is required");
        return;
    }
    std::error_code ec;
    issues.check(std::filesystem::is_regular_file(path, ec), key, path, "no such file");
}

void checkNumbers(const ExperimentConfig& c, IssueList& issues) {
    issues.check(c.num_classes >= 2, "num_classes", c.num_classes, "must be at least 2");
    issues.check(c.batch_size >= 1 && c.batch_size <= 65536, "batch_size", c.batch_size,
                 "must be between 1 and 65536");
    issues.check(c.epochs >= 1, "epochs", c.epochs, "must be at least 1");
    issues.check(c.max_steps >= 0, "max_steps", c.max_steps, "must be 0 (no cap) or positive");
    issues.check(c.val_max_steps >= 0, "val_max_steps", c.val_max_steps,
                 "must be 0 (no cap) or positive");
    issues.check(c.lr > 0 && c.lr < 100, "lr", c.lr, "must be positive (and below 100)");
    issues.check(c.momentum >= 0 && c.momentum < 1, "momentum", c.momentum, "must be in [0, 1)");
    issues.check(c.weight_decay >= 0, "weight_decay", c.weight_decay, "must not be negative");
    issues.check(c.warmup_steps >= 0, "warmup_steps", c.warmup_steps, "must not be negative");
    issues.check(c.lr_step_epochs >= 1, "lr_step_epochs", c.lr_step_epochs, "must be at least 1");
    issues.check(c.lr_gamma > 0 && c.lr_gamma <= 1, "lr_gamma", c.lr_gamma, "must be in (0, 1]");
    issues.check(c.label_smoothing >= 0 && c.label_smoothing < 1, "label_smoothing",
                 c.label_smoothing, "must be in [0, 1)");
    issues.check(c.workers >= 0 && c.workers <= 64, "workers", c.workers,
                 "must be between 0 and 64");
    issues.check(c.prefetch >= 1 && c.prefetch <= 64, "prefetch", c.prefetch,
                 "must be between 1 and 64");
    issues.check(c.threads >= 0 && c.threads <= 1024, "threads", c.threads,
                 "must be 0 (default) or a positive thread count");
    issues.check(c.val_every >= 0, "val_every", c.val_every, "must be 0 (never) or positive");
    issues.check(c.checkpoint_every >= 0, "checkpoint_every", c.checkpoint_every,
                 "must be 0 (off) or positive");
    issues.check(c.warmup_steps_excluded >= 0, "warmup_steps_excluded", c.warmup_steps_excluded,
                 "must not be negative");
    issues.check(c.image_size >= 8 && c.image_size <= 1024, "image_size", c.image_size,
                 "must be between 8 and 1024");
    issues.check(c.synthetic_samples >= 1, "synthetic_samples", c.synthetic_samples,
                 "must be at least 1");
    issues.check(c.synthetic_channels >= 1 && c.synthetic_channels <= 4, "synthetic_channels",
                 c.synthetic_channels, "must be between 1 and 4");
}

void checkProfile(const ProfileConfig& p, IssueList& issues) {
    issues.check(p.skip_first >= 0, "profile.skip_first", p.skip_first, "must not be negative");
    issues.check(p.wait >= 0, "profile.wait", p.wait, "must not be negative");
    issues.check(p.warmup >= 0, "profile.warmup", p.warmup, "must not be negative");
    issues.check(p.active >= 1, "profile.active", p.active, "must be at least 1");
    issues.check(p.repeat >= 0, "profile.repeat", p.repeat, "must be 0 (until the end) or more");
    issues.check(p.one_step_after >= -1, "profile.one_step_after", p.one_step_after,
                 "must be -1 (off) or a step count");
    issues.check(p.max_trace_events >= 1000, "profile.max_trace_events", p.max_trace_events,
                 "must be at least 1000");
}

int datasetClasses(const std::string& dataset) {
    if (dataset == "cifar100") return 100;
    if (dataset == "synthetic") return 0; // follows num_classes
    return 10;
}

void checkDeviceAndData(const ExperimentConfig& c, const DeviceSupportCheck& device_support,
                        IssueList& issues) {
    if (!isValidDeviceName(c.device)) {
        issues.check(false, "device", c.device, "must be cpu, cuda or cuda:N");
    } else {
        const auto problem = device_support(c.device, c.precision);
        issues.check(problem.empty(), c.precision == "fp32" ? "device" : "precision",
                     c.precision == "fp32" ? c.device : c.precision, problem);
    }
    const bool cuda = c.device.rfind("cuda", 0) == 0;
    issues.check(!c.pin_memory || cuda, "pin_memory", c.pin_memory,
                 "pinned memory only helps (and only works) with a CUDA device");
    const int classes = datasetClasses(c.dataset);
    issues.check(classes == 0 || c.num_classes >= classes, "num_classes", c.num_classes,
                 "too small for " + c.dataset + " (" + std::to_string(classes) + " classes)");
    if (!c.data_dir.empty() && c.dataset != "synthetic") {
        std::error_code ec;
        issues.check(std::filesystem::is_directory(c.data_dir, ec), "data_dir", c.data_dir,
                     "no such directory");
    }
    checkFile(issues, "model_path", c.model_path, c.model == "torchscript");
    checkFile(issues, "pretrained", c.pretrained, false);
    if (!c.resume.empty()) { // a checkpoint file or a run directory holding one
        try {
            resumeCheckpoint(c.resume);
        } catch (const ConfigError& e) {
            issues.check(false, "resume", c.resume, e.issues().front().message);
        }
    }
}

} // namespace

std::vector<ConfigIssue> validateConfigWith(const ExperimentConfig& config,
                                            const DeviceSupportCheck& device_support) {
    IssueList issues;
    checkEnumerations(config, issues);
    checkNumbers(config, issues);
    checkProfile(config.profile, issues);
    checkDeviceAndData(config, device_support, issues);
    return issues.take();
}

const std::vector<std::string>& configKeys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out;
        for (const auto& spec : config_keys::topLevelKeys())
            out.push_back(spec.key);
        for (const auto& spec : config_keys::profileKeys())
            out.push_back(std::string("profile.") + spec.key);
        return out;
    }();
    return keys;
}

const std::vector<std::string>& allowedValues(const std::string& key) {
    static const std::vector<std::string> none;
    for (const auto& spec : config_keys::topLevelKeys())
        if (key == spec.key) return spec.allowed;
    for (const auto& spec : config_keys::profileKeys())
        if (key == std::string("profile.") + spec.key) return spec.allowed;
    return none;
}

} // namespace ts
