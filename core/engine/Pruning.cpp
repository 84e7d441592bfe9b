#include "engine/Pruning.h"

#include <cmath>
#include <stdexcept>

namespace ts {
namespace {

int64_t prunedCount(int64_t n, double amount) {
    return std::min<int64_t>(n, int64_t(std::llround(amount * double(n))));
}

// Mask over a flat tensor of magnitudes with the k smallest set to 0.
torch::Tensor flatMask(const torch::Tensor& magnitudes, int64_t k) {
    auto mask = torch::ones_like(magnitudes, torch::kFloat32);
    if (k <= 0) return mask;
    // A stable sort makes ties deterministic: the earlier position goes first.
    const auto order = std::get<1>(magnitudes.sort(/*stable=*/true, /*dim=*/0, false));
    mask.index_fill_(0, order.slice(0, 0, k), 0.0);
    return mask;
}

} // namespace

std::vector<std::pair<std::string, torch::Tensor>> pruneTargets(Model& model, bool include_linear) {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (auto& [name, t] : model.namedParameters()) {
        const bool weight = name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0;
        if (weight && (t.dim() == 4 || (include_linear && t.dim() == 2))) out.emplace_back(name, t);
    }
    return out;
}

torch::Tensor l1UnstructuredMask(const torch::Tensor& weight, double amount) {
    const auto flat = weight.detach().abs().flatten().to(torch::kCPU, torch::kFloat32);
    return flatMask(flat, prunedCount(flat.numel(), amount)).view(weight.sizes());
}

std::vector<torch::Tensor> globalL1Masks(const std::vector<torch::Tensor>& weights, double amount) {
    std::vector<torch::Tensor> flats;
    for (const auto& w : weights)
        flats.push_back(w.detach().abs().flatten().to(torch::kCPU, torch::kFloat32));
    const auto all = torch::cat(flats);
    const auto mask = flatMask(all, prunedCount(all.numel(), amount));
    std::vector<torch::Tensor> out;
    int64_t offset = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        const int64_t n = flats[i].numel();
        out.push_back(mask.slice(0, offset, offset + n).view(weights[i].sizes()));
        offset += n;
    }
    return out;
}

torch::Tensor channelMask(const torch::Tensor& weight, double amount, int norm) {
    const auto w = weight.detach().to(torch::kCPU, torch::kFloat32).flatten(1);
    const auto norms = norm == 1 ? w.abs().sum(1) : w.pow(2).sum(1).sqrt();
    const auto keep = flatMask(norms, prunedCount(norms.numel(), amount));
    std::vector<int64_t> shape(size_t(weight.dim()), 1);
    shape[0] = weight.size(0);
    return keep.view(shape).expand(weight.sizes()).contiguous();
}

int64_t countZeros(const torch::Tensor& t) {
    return t.eq(0).sum().item<int64_t>();
}

int64_t countZeroChannels(const torch::Tensor& weight) {
    return weight.detach().flatten(1).ne(0).sum(1).eq(0).sum().item<int64_t>();
}

std::vector<LayerSparsity> pruneModel(Model& model, const PruneOptions& options) {
    checkPruneOptions(options);
    torch::NoGradGuard no_grad;
    const auto targets = pruneTargets(model, options.include_linear);
    std::vector<LayerSparsity> report;
    std::vector<torch::Tensor> weights;
    for (const auto& [name, t] : targets) {
        LayerSparsity l;
        l.name = name;
        l.shape = t.sizes().vec();
        l.params = t.numel();
        l.zeros_before = countZeros(t);
        l.channels = t.size(0);
        report.push_back(l);
        weights.push_back(t);
    }
    std::vector<torch::Tensor> masks;
    if (options.global && !options.structured) {
        masks = globalL1Masks(weights, options.amount);
    } else {
        for (const auto& w : weights)
            masks.push_back(options.structured ? channelMask(w, options.amount, options.norm)
                                               : l1UnstructuredMask(w, options.amount));
    }
    for (size_t i = 0; i < weights.size(); ++i) {
        weights[i].mul_(masks[i].to(weights[i].device(), weights[i].scalar_type()));
        report[i].zeros_after = countZeros(weights[i]);
        report[i].channels_zeroed = countZeroChannels(weights[i]);
    }
    return report;
}

} // namespace ts
