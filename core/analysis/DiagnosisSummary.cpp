#include "analysis/DiagnosisSummary.h"

#include <algorithm>
#include <cstdio>

namespace ts {
namespace {

std::string percent(double share) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f %%", 100 * share);
    return text;
}

// "63.7 ms", "412 us", "1.73 s": three significant digits are enough here.
std::string duration(int64_t ns) {
    char text[32];
    const double v = double(ns);
    if (v >= 1e9)
        std::snprintf(text, sizeof(text), "%.3g s", v / 1e9);
    else if (v >= 1e6)
        std::snprintf(text, sizeof(text), "%.3g ms", v / 1e6);
    else if (v >= 1e3)
        std::snprintf(text, sizeof(text), "%.3g us", v / 1e3);
    else
        std::snprintf(text, sizeof(text), "%lld ns", static_cast<long long>(ns));
    return text;
}

// "host wait" for HTA's "host_wait".
std::string words(const char* key) {
    std::string out = key;
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

// What each cause of idling asks for.
const char* remedyFor(IdleCause cause) {
    switch (cause) {
    case IdleCause::HostWait:
        return "the GPU waited for the CPU to launch its next work: a faster input pipeline, "
               "fewer and larger kernels (torch.compile, CUDA graphs) or less Python per step "
               "shorten it";
    case IdleCause::KernelWait:
        return "short gaps between kernels launched in time: fusing small kernels shortens them";
    case IdleCause::Other:
        break;
    }
    return "work launched in time still waited: look for synchronisations (.item(), .cpu(), "
           "cudaStreamSynchronize) and waits on other streams";
}

void addIdle(const GpuDiagnoses& d, std::vector<DiagnosisFinding>& out) {
    const TemporalBreakdown& t = d.temporal;
    if (t.window_ns <= 0) return;
    const double idle = t.share(t.idle_ns);
    out.push_back({"temporal", "GPU idle " + percent(idle),
                   "The GPU ran nothing for " + duration(t.idle_ns) + " of the " +
                       duration(t.window_ns) + " from its first to its last work; it computed " +
                       percent(t.share(t.compute_ns)) + " of the time.",
                   idle});
    // The stream and cause with the most idle time.
    const StreamIdle* worst = nullptr;
    size_t worst_cause = 0;
    for (const StreamIdle& s : d.idle.streams)
        for (size_t c = 0; c < kIdleCauseCount; ++c)
            if (!worst || s.idle_ns[c] > worst->idle_ns[worst_cause]) {
                worst = &s;
                worst_cause = c;
            }
    if (!worst || worst->idle_ns[worst_cause] <= 0) return;
    const auto cause = IdleCause(worst_cause);
    const IntervalStats& gaps = worst->intervals[worst_cause];
    out.push_back({"idle", "Most idle time: " + words(toString(cause)),
                   "Stream " + std::to_string(worst->stream) + " idled " +
                       duration(worst->idle_ns[worst_cause]) + " in " + std::to_string(gaps.count) +
                       " gaps of " + words(toString(cause)) + " (" +
                       percent(double(worst->idle_ns[worst_cause]) /
                               double(std::max<int64_t>(1, worst->totalNs()))) +
                       " of its idle time, the longest " + duration(int64_t(gaps.max)) +
                       "): " + remedyFor(cause) + ".",
                   double(worst->idle_ns[worst_cause]) / double(t.window_ns)});
}

void addLaunches(const Trace& trace, const LaunchStats& s, std::vector<DiagnosisFinding>& out) {
    if (s.launches.empty()) return;
    const double n = double(s.launches.size());
    const auto delayed = s.outliers[size_t(LaunchOutlier::LongDelay)];
    if (delayed > 0) {
        const auto longest = std::max_element(
            s.launches.begin(), s.launches.end(),
            [](const KernelLaunch& a, const KernelLaunch& b) { return a.delay_ns < b.delay_ns; });
        out.push_back({"launches", "Long launch delays: " + std::to_string(delayed),
                       std::to_string(delayed) + " of " + std::to_string(s.launches.size()) +
                           " launches waited over " + duration(s.options.launch_delay_cutoff_ns) +
                           " from the call's end to the work's start (median delay " +
                           duration(int64_t(s.delay.p50)) + ", longest " +
                           duration(longest->delay_ns) + " before " +
                           trace.nameOf(trace.events[size_t(longest->device)]).substr(0, 80) +
                           "): the stream was full of earlier work, which is fine while the GPU "
                           "is busy.",
                       double(delayed) / n});
    }
    const auto short_kernels = s.outliers[size_t(LaunchOutlier::ShortKernel)];
    if (short_kernels > 0)
        out.push_back({"launches", "Short kernels: " + std::to_string(short_kernels),
                       std::to_string(short_kernels) + " kernels (" +
                           percent(double(short_kernels) / n) +
                           " of the launches) ran shorter than the call that launched them: "
                           "launch-bound work; fusing them, or CUDA graphs, saves the launches.",
                       double(short_kernels) / n});
    const auto slow = s.outliers[size_t(LaunchOutlier::SlowRuntime)];
    if (slow > 0)
        out.push_back({"launches", "Slow runtime calls: " + std::to_string(slow),
                       std::to_string(slow) + " launching calls took over " +
                           duration(s.options.runtime_cutoff_ns) + " on the CPU (the longest " +
                           duration(int64_t(s.cpu.max)) +
                           "): the CPU was held inside the CUDA runtime.",
                       double(slow) / n});
}

void addKernelTypes(const KernelTypeBreakdown& k, std::vector<DiagnosisFinding>& out) {
    const int64_t total = k.totalNs();
    if (total <= 0 || k.overlaps.empty()) return;
    const int64_t communication = k.communicationNs(), overlapped = k.overlappedCommunicationNs();
    if (communication == 0) return;
    const double share = double(communication) / double(total);
    out.push_back({"kernel-types", "Communication " + percent(share) + " of GPU time",
                   "Communication kernels ran " + duration(communication) + ", " +
                       percent(double(overlapped) / double(communication)) +
                       " of it overlapped with computation; the rest holds the step up unless "
                       "other work hides it.",
                   share});
}

// A stream whose queue was full: the CPU blocked in its launches.
void addQueue(const QueueLength& q, std::vector<DiagnosisFinding>& out) {
    const StreamQueue* worst = nullptr;
    for (const StreamQueue& s : q.streams)
        if (s.blocked_ns > 0 && (!worst || s.blocked_ns > worst->blocked_ns)) worst = &s;
    if (!worst) return;
    out.push_back({"queue", "Launch queue full: stream " + std::to_string(worst->stream),
                   "Stream " + std::to_string(worst->stream) + " held " +
                       std::to_string(q.max_queue_length) + " launches or more for " +
                       duration(worst->blocked_ns) + " (" + percent(worst->blocked_share) +
                       " of the trace): the CPU blocked in its launches there; the GPU is the "
                       "bottleneck, so making it faster pays, not the CPU side.",
                   worst->blocked_share});
}

// The sequence of several kernels that recurs most: a fusion candidate.
void addSequences(const KernelSequences& k, std::vector<DiagnosisFinding>& out) {
    const KernelSequence* top = nullptr;
    for (const KernelSequence& s : k.sequences)
        if (s.count >= 2 && s.kernels.size() >= 3 && (!top || s.count > top->count)) top = &s;
    if (!top) return;
    const int64_t gaps = top->span_ns - top->gpu_ns;
    out.push_back({"kernel-sequences", "Fusion candidate: " + top->op.substr(0, 60),
                   top->op.substr(0, 80) + " launched the same " +
                       std::to_string(top->kernels.size()) + " kernels " +
                       std::to_string(top->count) + " times: " + duration(top->gpu_ns) +
                       " of GPU time over a span of " + duration(top->span_ns) +
                       (gaps > 0 ? " (" + duration(gaps) + " between them)" : std::string()) +
                       "; one fused kernel would save the launches and the gaps.",
                   top->span_ns > 0 ? double(gaps) / double(top->span_ns) : 0});
}

} // namespace

std::vector<DiagnosisFinding> summarizeDiagnoses(const Trace& trace, const GpuDiagnoses& d) {
    std::vector<DiagnosisFinding> out;
    if (d.activity.empty()) return out;
    addIdle(d, out);
    addLaunches(trace, d.launches, out);
    addQueue(d.queue, out);
    addKernelTypes(d.kernel_types, out);
    addSequences(d.sequences, out);
    return out;
}

} // namespace ts
