// loadPretrained: checks every tensor first, then copies, so a rejected file
// leaves the model untouched.
#include <unordered_map>
#include <unordered_set>

#include "models/Model.h"

namespace ts {
namespace {

std::string shapeText(torch::IntArrayRef sizes) {
    std::string out = "[";
    for (size_t i = 0; i < sizes.size(); ++i)
        out += (i ? ", " : "") + std::to_string(sizes[i]);
    return out + "]";
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "layer1.0.conv1.weight" -> "layer1.0.conv1"
std::string moduleOf(const std::string& tensor_name) {
    const size_t dot = tensor_name.rfind('.');
    return dot == std::string::npos ? std::string() : tensor_name.substr(0, dot);
}

// Shapes that differ only in dimension 1 (a conv's input channels).
bool onlyInputChannelsDiffer(torch::IntArrayRef a, torch::IntArrayRef b) {
    if (a.size() != 4 || b.size() != 4 || a[1] == b[1]) return false;
    return a[0] == b[0] && a[2] == b[2] && a[3] == b[3];
}

struct LoadPlan {
    std::vector<std::pair<torch::Tensor, torch::Tensor>> copies; // (model tensor, weights tensor)
    std::string head, first_conv;
    int64_t head_from = -1, head_to = -1; // classes when the head was replaced
    bool head_missing = false;
    int64_t conv_from = -1, conv_to = -1; // input channels when the first conv was kept
    int missing_counters = 0;             // num_batches_tracked absent from the weights
    size_t unused = 0;
};

LoadPlan planLoad(Model& model, const StateDict& weights, const std::string& origin) {
    std::unordered_map<std::string, const torch::Tensor*> by_name;
    for (const auto& [name, tensor] : weights)
        by_name[name] = &tensor;
    auto targets = model.namedParameters();
    LoadPlan plan;
    // The classifier is the module owning the last parameter, the stem the first 4-D one.
    if (!targets.empty()) plan.head = moduleOf(targets.back().first);
    for (const auto& [name, tensor] : targets)
        if (plan.first_conv.empty() && tensor.dim() == 4) plan.first_conv = name;
    for (auto& buffer : model.namedBuffers())
        targets.push_back(std::move(buffer));

    std::unordered_set<std::string> used;
    for (const auto& [name, target] : targets) {
        const bool in_head = !plan.head.empty() && moduleOf(name) == plan.head;
        const auto found = by_name.find(name);
        if (found == by_name.end()) {
            if (in_head)
                plan.head_missing = true;
            else if (endsWith(name, "num_batches_tracked"))
                ++plan.missing_counters;
            else
                throw ModelError("Cannot load weights from '" + origin +
                                 "': they have no tensor '" + name + "' (shape " +
                                 shapeText(target.sizes()) + " in the model).");
            continue;
        }
        used.insert(name);
        const torch::Tensor& source = *found->second;
        if (source.sizes() != target.sizes()) {
            if (in_head && endsWith(name, "weight") && source.dim() >= 1) {
                plan.head_from = source.size(0);
                plan.head_to = target.size(0);
            } else if (name == plan.first_conv &&
                       onlyInputChannelsDiffer(source.sizes(), target.sizes())) {
                plan.conv_from = source.size(1);
                plan.conv_to = target.size(1);
            } else if (!in_head) {
                throw ModelError("Cannot load weights from '" + origin + "': tensor '" + name +
                                 "' has shape " + shapeText(source.sizes()) +
                                 " in the weights but " + shapeText(target.sizes()) +
                                 " in the model.");
            }
            continue;
        }
        plan.copies.emplace_back(target, source);
    }
    plan.unused = weights.size() - used.size();
    return plan;
}

std::string describe(const LoadPlan& plan, const std::string& origin) {
    std::string report = "loaded " + std::to_string(plan.copies.size()) + " tensors from " + origin;
    if (plan.head_from >= 0)
        report += "; replaced classifier head " + plan.head + " (" +
                  std::to_string(plan.head_from) + " -> " + std::to_string(plan.head_to) +
                  " classes)";
    if (plan.head_missing)
        report += "; classifier head " + plan.head + " not in the weights, kept its initialisation";
    if (plan.conv_from >= 0)
        report += "; kept the model's own " + plan.first_conv + " (weights are for " +
                  std::to_string(plan.conv_from) + " input channels, the model has " +
                  std::to_string(plan.conv_to) + ")";
    if (plan.missing_counters > 0)
        report += "; " + std::to_string(plan.missing_counters) +
                  " num_batches_tracked absent (left at 0)";
    if (plan.unused > 0)
        report += "; ignored " + std::to_string(plan.unused) + " tensors the model does not have";
    return report;
}

} // namespace

std::string loadPretrained(Model& model, const StateDict& weights, const std::string& origin) {
    const LoadPlan plan = planLoad(model, weights, origin);
    torch::NoGradGuard no_grad;
    for (const auto& [target, source] : plan.copies) {
        torch::Tensor destination = target;
        destination.copy_(source);
    }
    return describe(plan, origin);
}

} // namespace ts
