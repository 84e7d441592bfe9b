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
std::vector<BackendModule> candidates(std::string* why) {
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
    std::error_code ignored;
    const std::filesystem::path want = std::filesystem::weakly_canonical(chosen, ignored);
    const auto it = std::find_if(modules.begin(), modules.end(),
                                 [&want](const BackendModule& m) { return m.path == want; });
    const BackendModule first = it == modules.end() ? describeBackendModule(chosen) : *it;
    if (it != modules.end()) modules.erase(it);
    modules.insert(modules.begin(), first);
    return modules;
}

// dlopen's own words name the missing library (libtorch_cpu.so, ...); a
// module built from other sources is refused before it is called.
std::string tryModule(const BackendModule& m, const TorchBackend** backend) {
    if (!std::filesystem::exists(m.path)) return "no such file";
    // RTLD_LOCAL: the module's copy of the core, and its LibTorch, stay its own.
    void* module = dlopen(m.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) return dlerror();
    auto abi = reinterpret_cast<TorchBackendAbiEntry>(dlsym(module, kTorchBackendAbiSymbol));
    auto entry = reinterpret_cast<TorchBackendEntry>(dlsym(module, kTorchBackendSymbol));
    std::string problem;
    if (!abi || !entry)
        problem = std::string("has no ") + (abi ? kTorchBackendSymbol : kTorchBackendAbiSymbol);
    else if (abi() != torchBackendAbi())
        problem = "built from other Trainscope sources than this program (rebuild it)";
    if (!problem.empty()) {
        dlclose(module);
        return problem;
    }
    *backend = entry(); // the module stays loaded for the process's life
    // Its features now, on the thread that loaded it: their Kineto check
    // starts libkineto, which must start on the thread where LibTorch
    // registered with it as the library loaded ("External init callback must
    // run in same thread as registerClient" otherwise).
    (*backend)->features();
    return {};
}

TorchBackendLoad load() {
    TorchBackendLoad out;
    std::string why;
    const std::vector<BackendModule> modules = candidates(&why);
    for (const BackendModule& m : modules) {
        const std::string problem = tryModule(m, &out.backend);
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

const TorchBackendLoad& torchBackendLoad() {
    // The shared state outlives this copy: `loading` keeps it until a
    // registration replaces it (tests only, between their runs).
    return started().get(); // rethrows the load's error
}

const TorchBackend& torchBackend() {
    return *torchBackendLoad().backend;
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
