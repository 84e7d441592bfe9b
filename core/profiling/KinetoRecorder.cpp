#include "profiling/KinetoRecorder.h"

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/util/Exception.h>
#include <dlfcn.h>
#include <torch/csrc/autograd/profiler_kineto.h>
#include <unistd.h>

#include "profiling/MemoryTracker.h"

// Declared by kineto_shim.h only where LibTorch itself is compiled with
// Kineto; exported by every LibTorch since 1.13.
namespace torch::autograd::profiler {
TORCH_API void addMetadataJson(const std::string& key, const std::string& value);
} // namespace torch::autograd::profiler

namespace ts {

namespace {

namespace prof = torch::autograd::profiler;
namespace impl = torch::profiler::impl;

std::set<impl::ActivityType> activities(bool cuda) {
    std::set<impl::ActivityType> set{impl::ActivityType::CPU};
    if (cuda) set.insert(impl::ActivityType::CUDA);
    return set;
}

impl::ProfilerConfig profilerConfig(const KinetoOptions& o) {
    // Stacks and modules: TorchScript's call stacks and module hierarchy
    // (eager C++ ops have neither, and cost nothing for them). No FLOPs:
    // Kineto computes them in each op's callback for the profiler's event
    // list and writes none into the trace (2.15), which is all Trainscope
    // keeps; it estimates them from the recorded shapes after the window
    // (ProfileSession), as for any trace. Asking cost 3% of a step
    // (bench_profiler_overhead, docs/benchmarks.md).
    impl::ProfilerConfig config(impl::ProfilerState::KINETO, o.record_shapes, o.profile_memory,
                                /*with_stack=*/true, /*with_flops=*/false, /*with_modules=*/true);
    // Not profile_all_threads (2.x's ExperimentalConfig): with it, Kineto
    // records no memory events. It records the calling thread and those
    // LibTorch hands work to (intra-op pool, autograd), as torch.profiler
    // does by default; Trainscope's collector also sees the loader threads.
    return config;
}

std::string firstLine(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

bool savedTrace(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    return head.find("traceEvents") != std::string::npos;
}

// A LibTorch built with Kineto links libkineto into libtorch_cpu and exports
// it; Debian's 1.13, built without, has the profiler's Kineto API all the same,
// and saving its trace crashes there, so it is not even tried. Looked up in
// libtorch_cpu itself (found from one of its functions), not in the global
// scope: the GUI loads LibTorch inside its module with RTLD_LOCAL, where
// RTLD_DEFAULT does not see it.
bool kinetoLinked() {
    Dl_info info{};
    if (!::dladdr(reinterpret_cast<void*>(&at::get_num_threads), &info) || !info.dli_fname)
        return false;
    void* torch_cpu = ::dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!torch_cpu) return false;
    const bool linked = ::dlsym(torch_cpu, "_ZN9libkineto3apiEv") != nullptr; // libkineto::api()
    ::dlclose(torch_cpu); // NOLOAD took a reference to the loaded library: give it back
    return linked;
}

// A profile of one empty range, saved: LibTorch without Kineto accepts
// enableProfiler but cannot save (or saves no trace).
std::string probe() {
    if (!kinetoLinked())
        return "LibTorch " + std::string(TORCH_VERSION) +
               " was built without Kineto (no libkineto in libtorch_cpu)";
    const auto path = std::filesystem::temp_directory_path() /
                      ("trainscope-kineto-probe-" + std::to_string(::getpid()) + ".json");
    std::string why;
    try {
        KinetoOptions options;
        options.record_shapes = options.profile_memory = false;
        KinetoRecorder recorder(options);
        recorder.start();
        KinetoRange("trainscope kineto probe").end();
        recorder.stopAndSave(path);
    } catch (const c10::Error& e) {
        why = firstLine(e.what_without_backtrace());
    } catch (const std::exception& e) {
        why = firstLine(e.what());
    }
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    if (why.empty()) return why;
    return "LibTorch " + std::string(TORCH_VERSION) + "'s Kineto does not record (" + why + ")";
}

} // namespace

bool KinetoRecorder::available(std::string* why) {
    static std::once_flag once;
    static std::string reason;
    std::call_once(once, [] {
        // Kineto logs every start and stop of a trace (and, without a GPU, an
        // error about it) to stderr; quiet unless the user asks, read once as
        // Kineto starts.
        ::setenv("KINETO_LOG_LEVEL", "6", /*overwrite=*/0);
        reason = probe();
    });
    if (why) *why = reason;
    return reason.empty();
}

KinetoRecorder::KinetoRecorder(KinetoOptions options) : options_(options) {}

KinetoRecorder::~KinetoRecorder() {
    if (!running_) return;
    try {
        stop();
    } catch (...) { // nothing to tell from a destructor
    }
}

void KinetoRecorder::prepare() {
    if (prepared_ || running_) return;
    prof::prepareProfiler(profilerConfig(options_), activities(options_.cuda));
    prepared_ = true;
}

void KinetoRecorder::start() {
    if (running_) return;
    const auto config = profilerConfig(options_);
    if (!prepared_) prof::prepareProfiler(config, activities(options_.cuda));
    MemoryTracker::suspendScopeOnThisThread();
    try {
        prof::enableProfiler(config, activities(options_.cuda));
    } catch (...) {
        MemoryTracker::resumeScopeOnThisThread();
        throw;
    }
    prepared_ = false;
    running_ = true;
}

std::unique_ptr<prof::ProfilerResult> KinetoRecorder::disable() {
    running_ = false;
    struct Resume {
        ~Resume() { MemoryTracker::resumeScopeOnThisThread(); }
    } resume;
    return prof::disableProfiler();
}

void KinetoRecorder::addMetadata(const std::string& key, const std::string& json) {
    if (running_) prof::addMetadataJson(key, json);
}

void KinetoRecorder::stopAndSave(const std::filesystem::path& path) {
    disable()->save(path.string());
    // Kineto's save says nothing when its write fails (a full disk, a file
    // size limit); without Kineto there may be no file at all.
    if (!savedTrace(path))
        throw std::runtime_error("Kineto could not write its trace to '" + path.string() +
                                 "' (a full disk or a file size limit?)");
}

void KinetoRecorder::stop() {
    disable();
}

struct KinetoRange::Impl {
    at::RecordFunction range{at::RecordScope::USER_SCOPE};
};

KinetoRange::KinetoRange(const std::string& name) {
    auto impl = std::make_unique<Impl>();
    if (!impl->range.isActive()) return;
    impl->range.before(name);
    impl_ = std::move(impl);
}

KinetoRange::KinetoRange() = default;
KinetoRange::~KinetoRange() = default;
KinetoRange::KinetoRange(KinetoRange&&) noexcept = default;
KinetoRange& KinetoRange::operator=(KinetoRange&&) noexcept = default;

void KinetoRange::end() {
    impl_.reset();
}

} // namespace ts
