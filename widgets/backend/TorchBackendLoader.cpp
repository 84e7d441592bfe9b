#include "backend/TorchBackendLoader.h"

#include <algorithm>
#include <cstdlib>
#include <future>
#include <mutex>
#include <stdexcept>

#include <dlfcn.h>

namespace ts::gui {
namespace {

std::mutex mutex;
const TorchBackend* registered = nullptr;
std::filesystem::path chosen;
std::shared_future<TorchBackendLoad> loading; // valid once started

const char* namedModule() {
    const char* env = std::getenv("TRAINSCOPE_TORCH_BACKEND");
    return env && *env ? env : nullptr;
}

// The modules in the order tried, and why the first is first.
std::vector<BackendModule> candidates(const std::filesystem::path& chosen, std::string* why) {
    // A module named by the environment is the only one tried: whoever set it
    // (a test, a packager) means that one, not whichever copy lies nearby.
    if (const char* env = namedModule()) {
        *why = "set by TRAINSCOPE_TORCH_BACKEND";
        return {describeBackendModule(env)};
    }
    std::vector<BackendModule> modules = findBackendModules(backendModuleFolders());
    *why = "the newest LibTorch found";
    if (chosen.empty()) return modules;
    *why = "chosen in Settings \u25b8 LibTorch";
    const BackendModule first = describeBackendModule(chosen);
    const auto it = std::find_if(modules.begin(), modules.end(),
                                 [&first](const BackendModule& m) { return m.path == first.path; });
    if (it != modules.end()) modules.erase(it);
    modules.insert(modules.begin(), first);
    return modules;
}

// Why `m` is passed over before it is loaded: missing, or described as built
// against another interface. "" to load it.
std::string problemBeforeLoading(const BackendModule& m) {
    if (!std::filesystem::exists(m.path)) return "no such file";
    if (m.described && m.interface != backendInterfaceHash())
        return "built from other Trainscope sources than this program (rebuild it; for "
               "build/torch2: scripts/torch2.sh module)";
    return {};
}

// A module whose LibTorch has been loaded and cannot be used: no other
// LibTorch may be loaded beside it, so the load ends here.
[[noreturn]] void refuseLoaded(const BackendModule& m, const std::string& problem) {
    throw std::runtime_error(
        "Training is unavailable: " + m.label() + " (" + m.path.string() + ") loaded but " +
        problem +
        ". Rebuild it, or choose another LibTorch in Settings \u25b8 LibTorch, "
        "then start Trainscope again.");
}

// Loads `m`: "" and the backend, or dlopen's own words (naming the missing
// library: libtorch_cpu.so, ...) when nothing of it stayed loaded. A module
// that loaded and cannot be used is refused for good (refuseLoaded).
std::string loadModule(const BackendModule& m, const TorchBackend** backend) {
    // RTLD_LOCAL: the module's copy of the core, and its LibTorch, stay its own.
    void* module = dlopen(m.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) return dlerror();
    auto abi = reinterpret_cast<TorchBackendAbiEntry>(dlsym(module, kTorchBackendAbiSymbol));
    auto entry = reinterpret_cast<TorchBackendEntry>(dlsym(module, kTorchBackendSymbol));
    if (!abi || !entry)
        refuseLoaded(m,
                     std::string("has no ") + (abi ? kTorchBackendSymbol : kTorchBackendAbiSymbol));
    // A module without its .json: its fingerprint is the only check left.
    if (abi() != torchBackendAbi()) refuseLoaded(m, "was built from other Trainscope sources");
    *backend = entry(); // the module stays loaded for the process's life
    if (!*backend) refuseLoaded(m, "gave no backend");
    // Its features now, on the thread that loaded it: their Kineto check
    // starts libkineto, which must start on the thread where LibTorch
    // registered with it as the library loaded ("External init callback must
    // run in same thread as registerClient" otherwise).
    try {
        (*backend)->features();
    } catch (const std::exception& e) {
        refuseLoaded(m, std::string("could not say what it can do: ") + e.what());
    }
    return {};
}

TorchBackendLoad load(const std::filesystem::path& chosen) {
    TorchBackendLoad out;
    std::string why;
    for (const BackendModule& m : candidates(chosen, &why)) {
        std::string problem = problemBeforeLoading(m);
        if (problem.empty()) problem = loadModule(m, &out.backend);
        if (problem.empty()) {
            out.module = m;
            out.why = out.skipped.empty() ? why : "the first of the modules that loaded";
            return out;
        }
        out.skipped.push_back(m.label() + " (" + m.path.string() + "): " + problem);
    }
    std::string text =
        "Training needs LibTorch, and its module could not be loaded (" + torchBackendSearchText();
    for (const std::string& skipped : out.skipped)
        text += "; " + skipped;
    throw std::runtime_error(text + ").");
}

std::shared_future<TorchBackendLoad> started() {
    std::lock_guard<std::mutex> lock(mutex);
    if (!loading.valid()) {
        if (registered) {
            std::promise<TorchBackendLoad> ready;
            TorchBackendLoad linked;
            linked.backend = registered;
            linked.why = "linked into this program";
            ready.set_value(linked);
            loading = ready.get_future().share();
        } else {
            // The choice by value: the loading thread reads no shared state.
            loading = std::async(std::launch::async, load, chosen).share();
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

void setTorchBackendChoice(const std::filesystem::path& module) {
    std::lock_guard<std::mutex> lock(mutex);
    chosen = module;
}

void startLoadingTorchBackend() {
    started();
}

bool torchBackendReady() {
    const std::shared_future<TorchBackendLoad> f = started();
    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

TorchBackendLoad torchBackendLoad() {
    return started().get(); // rethrows the load's error
}

const TorchBackend& torchBackend() {
    return *started().get().backend;
}

std::string torchBackendSearchText() {
    if (const char* env = namedModule()) return std::string("looked for ") + env;
    std::string text = "looked in ";
    bool first = true;
    for (const std::filesystem::path& folder : backendModuleFolders()) {
        text += (first ? "" : ", ") + folder.lexically_normal().string();
        first = false;
    }
    return text + " for libtrainscope_torch_backend-*.so";
}

} // namespace ts::gui
