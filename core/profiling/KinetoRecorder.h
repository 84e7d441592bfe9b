#pragma once
// Records a profiling window through LibTorch's own profiler (Kineto), the one
// behind Python's torch.profiler: CPU operators and, on CUDA, CUPTI's kernels,
// memcpys and memsets, with shapes, memory events and FLOPs, saved as the
// Kineto trace torch.profiler writes. Where the LibTorch has no Kineto
// (Debian's 1.13 is built without it), available() says so and Trainscope's
// own collector (OpCollector) records instead.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace torch::autograd::profiler {
struct ProfilerResult;
} // namespace torch::autograd::profiler

namespace ts {

struct KinetoOptions {
    bool record_shapes = true;
    bool profile_memory = true;
    bool cuda = false; // CUPTI activities besides the CPU's
};

class KinetoRecorder {
public:
    // Whether this LibTorch records and saves Kineto traces; when not, `why`
    // says so in plain words. Tried once per process (a tiny profile saved to
    // a temporary file), the answer then kept.
    static bool available(std::string* why = nullptr);

    explicit KinetoRecorder(KinetoOptions options);
    ~KinetoRecorder();
    KinetoRecorder(const KinetoRecorder&) = delete;
    KinetoRecorder& operator=(const KinetoRecorder&) = delete;

    // Warms Kineto up before the first recorded step (torch.profiler's
    // warm-up: CUPTI's start-up cost stays out of the recorded steps).
    void prepare();
    // Starts recording on the calling thread (and the threads LibTorch runs
    // its work on). Throws c10::Error when LibTorch refuses.
    void start();
    bool running() const { return running_; }
    // Kineto's "distributedInfo" and other trace-level metadata (JSON text).
    void addMetadata(const std::string& key, const std::string& json);
    // Stops recording and writes the trace to `path`.
    void stopAndSave(const std::filesystem::path& path);
    // Stops recording without a file (a run that ends inside a warm-up).
    void stop();

private:
    // Stops Kineto; the thread's MemoryTracker scope, which start() set
    // aside (Kineto takes any memory receiver it finds for a running
    // profiler), comes back.
    std::unique_ptr<torch::autograd::profiler::ProfilerResult> disable();

    KinetoOptions options_;
    bool prepared_ = false;
    bool running_ = false;
};

// A range on the Kineto trace (a user annotation, as torch.profiler's
// record_function), from construction to end() or destruction, on the
// calling thread. Inactive (no cost beyond a check) when nothing records.
class KinetoRange {
public:
    KinetoRange();
    explicit KinetoRange(const std::string& name);
    ~KinetoRange();
    KinetoRange(KinetoRange&&) noexcept;
    KinetoRange& operator=(KinetoRange&&) noexcept;
    void end();
    bool open() const { return static_cast<bool>(impl_); }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ts
