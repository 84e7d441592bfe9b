#pragma once
// Model backed by a user's TorchScript module (torch.jit.script/trace + save).
#include <torch/script.h>

#include "models/Model.h"

namespace ts {

class TorchScriptModel : public Model {
public:
    // Throws ModelError naming `path` when it is missing or not a TorchScript
    // archive with a forward method.
    explicit TorchScriptModel(const std::string& path);
    torch::Tensor forward(const torch::Tensor& input) override;
    std::vector<torch::Tensor> parameters() override;
    std::vector<std::pair<std::string, torch::Tensor>> namedParameters() override;
    std::vector<std::pair<std::string, torch::Tensor>> namedBuffers() override;
    void train(bool on) override { module_.train(on); }
    void to(const torch::Device& device, bool channels_last) override;
    std::string name() const override;

private:
    std::string path_;
    torch::jit::Module module_;
};

// torch::jit::load with errors that name the file; shared with readStateDict.
torch::jit::Module loadTorchScript(const std::string& path);

// Runs the archive's pickles (data.pkl, constants.pkl) through Trainscope's
// own bounds-checked unpickler, building nothing, and throws ModelError
// naming the file when one is corrupt: LibTorch's unpickler crashes on some
// (docs/reliability.md). Call it before torch::jit::load and
// InputArchive::load_from; a file that is not a PyTorch archive throws
// LibTorch's c10::Error.
void checkArchivePickles(const std::string& path);

} // namespace ts
