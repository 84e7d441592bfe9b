#include "backend/TorchBackendLoader.h"

#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

namespace ts::gui {
namespace {

constexpr const char* kModuleName = "libtrainscope_torch_backend.so";

std::mutex mutex;
const TorchBackend* registered = nullptr;
std::shared_future<const TorchBackend*> loading; // valid once started

std::filesystem::path programDirectory() {
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : exe.parent_path();
}

std::vector<std::filesystem::path> candidates() {
    // A module named by the environment is the only one tried: whoever set it
    // (a test, a packager) means that one, not whichever copy lies nearby.
    if (const char* env = std::getenv("TRAINSCOPE_TORCH_BACKEND"); env && *env) return {env};
    std::vector<std::filesystem::path> out;
    const std::filesystem::path dir = programDirectory();
    if (!dir.empty()) {
        out.push_back(dir / kModuleName);                               // the build tree
        out.push_back(dir / ".." / "lib" / "trainscope" / kModuleName); // installed
    }
    return out;
}

// dlopen's own words name the missing library (libtorch_cpu.so, ...).
const TorchBackend* load() {
    std::string problems;
    for (const std::filesystem::path& path : candidates()) {
        if (!std::filesystem::exists(path)) continue;
        // RTLD_LOCAL: the module's copy of the core stays its own.
        void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!module) {
            problems += std::string("; ") + dlerror();
            continue;
        }
        auto entry = reinterpret_cast<TorchBackendEntry>(dlsym(module, kTorchBackendSymbol));
        if (!entry) {
            problems += "; " + path.string() + " has no " + kTorchBackendSymbol;
            continue;
        }
        return entry(); // the module stays loaded for the process's life
    }
    throw std::runtime_error("Training needs LibTorch, and its module could not be loaded (" +
                             torchBackendSearchText() + problems + ").");
}

std::shared_future<const TorchBackend*> started() {
    std::lock_guard<std::mutex> lock(mutex);
    if (!loading.valid()) {
        if (registered) {
            std::promise<const TorchBackend*> ready;
            ready.set_value(registered);
            loading = ready.get_future().share();
        } else {
            loading = std::async(std::launch::async, load).share();
        }
    }
    return loading;
}

} // namespace

void registerTorchBackend(const TorchBackend* backend) {
    std::lock_guard<std::mutex> lock(mutex);
    registered = backend;
    loading = {};
}

void startLoadingTorchBackend() {
    started();
}

bool torchBackendReady() {
    const std::shared_future<const TorchBackend*> f = started();
    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

const TorchBackend& torchBackend() {
    return *started().get(); // rethrows the load's error
}

std::string torchBackendSearchText() {
    std::string text = "looked for ";
    bool first = true;
    for (const std::filesystem::path& path : candidates()) {
        text += (first ? "" : ", ") + path.lexically_normal().string();
        first = false;
    }
    return text;
}

} // namespace ts::gui
