#include "engine/Evaluate.h"

#include <chrono>

#include "env/TorchCompat.h"

namespace ts {

AutocastScope::AutocastScope(const torch::Device& device, const std::string& precision)
    : device_type_(device.type()), enabled_(precision != "fp32") {
    if (enabled_)
        compat::setAutocast(device_type_, true,
                            precision == "bf16" ? torch::kBFloat16 : torch::kHalf);
}

AutocastScope::~AutocastScope() {
    if (!enabled_) return;
    compat::setAutocast(device_type_, false, torch::kFloat32);
    compat::clearAutocastCache();
}

torch::Tensor classificationLoss(const torch::Tensor& logits, const torch::Tensor& labels,
                                 double label_smoothing) {
    namespace F = torch::nn::functional;
    // Loss in fp32 whatever the autocast dtype, as torch.autocast does.
    return F::cross_entropy(logits.to(torch::kFloat32), labels,
                            F::CrossEntropyFuncOptions().label_smoothing(label_smoothing));
}

EvalResult evaluateModel(Model& model, DataLoader& loader, int epoch, const torch::Device& device,
                         const std::string& precision, double label_smoothing,
                         const std::atomic<bool>* cancel) {
    const auto start = std::chrono::steady_clock::now();
    EvalResult result;
    model.train(false);
    torch::NoGradGuard no_grad;
    double loss_sum = 0;
    int64_t correct = 0;
    loader.startEpoch(epoch);
    while (!(cancel && cancel->load())) {
        auto batch = loader.next();
        if (!batch) break;
        const auto images = batch->images.to(device);
        const auto labels = batch->labels.to(device);
        torch::Tensor logits;
        {
            AutocastScope autocast(device, precision);
            logits = model.forward(images);
        }
        const int64_t n = labels.size(0);
        loss_sum += classificationLoss(logits, labels, label_smoothing).item<double>() * n;
        correct += logits.argmax(1).eq(labels).sum().item<int64_t>();
        result.samples += n;
    }
    model.train(true);
    if (result.samples > 0) {
        result.loss = loss_sum / double(result.samples);
        result.accuracy = double(correct) / double(result.samples);
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace ts
