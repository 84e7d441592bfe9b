#include "analysis/UserAnnotations.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ts {
namespace {

struct Instance {
    int32_t event = -1;
    int32_t lane = -1;
    int64_t start = 0, end = 0;
    uint32_t name = 0;
    int64_t dur() const { return end - start; }
};

// The annotation instances of a side, as the other diagnoses see the trace:
// with HTA's step rule, those starting from the last ProfilerStep on are
// dropped with the work launched there.
std::vector<Instance> instancesOf(const Trace& trace, const DeviceActivities& activity,
                                  const AnnotationOptions& options) {
    const KinetoCategory wanted = options.side == AnnotationSide::Gpu
                                      ? KinetoCategory::GpuUserAnnotation
                                      : KinetoCategory::UserAnnotation;
    const int64_t cut = options.hta_rounding
                            ? htaRounded(activity.cutoff, activity.cutoff, trace.origin_ns).first
                            : activity.cutoff;
    std::vector<Instance> out;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        if (trace.categoryOf(int32_t(i)) != wanted) continue;
        const TraceEvent e = trace.events[i];
        Instance a{int32_t(i), e.lane, e.start_ns, e.end_ns(), e.name};
        if (options.hta_rounding)
            std::tie(a.start, a.end) = htaRounded(a.start, a.end, trace.origin_ns);
        if (activity.last_step_dropped && a.start >= cut) continue;
        out.push_back(a);
    }
    // By lane, then start, the longer first (the events' own order).
    std::stable_sort(out.begin(), out.end(), [](const Instance& a, const Instance& b) {
        return std::tie(a.lane, a.start) < std::tie(b.lane, b.start);
    });
    return out;
}

// Whether `a` is a better (shorter) label than `b`: HTA lets the shortest
// overlapping annotation win; equal lengths, which HTA leaves to its sort,
// go to the later-starting (inner) one.
bool shorter(const Instance& a, const Instance& b) {
    return std::make_tuple(a.dur(), -a.start, -a.event) <
           std::make_tuple(b.dur(), -b.start, -b.event);
}

// GPU annotations: each device event gets the shortest annotation of its
// lane that overlaps it (partial overlap counts, as in HTA). A zero-length
// event counts when the annotation holds its instant: where it ran.
void labelByOverlap(const DeviceActivities& activity, const std::vector<Instance>& annotations,
                    std::vector<int32_t>& label) {
    size_t next = 0;            // first annotation not yet active
    std::vector<size_t> active; // started at or before the current event, not ended
    int32_t lane = -1;
    for (size_t k = 0; k < activity.events.size(); ++k) {
        const DeviceActivity& d = activity.events[k];
        if (d.lane != lane) {
            lane = d.lane;
            active.clear();
            next =
                size_t(std::lower_bound(annotations.begin(), annotations.end(), lane,
                                        [](const Instance& a, int32_t l) { return a.lane < l; }) -
                       annotations.begin());
        }
        const int64_t end = std::max(d.end, d.start); // HTA's rounding leaves -1 durations
        for (; next < annotations.size() && annotations[next].lane == lane &&
               annotations[next].start <= d.start;
             ++next)
            if (annotations[next].dur() > 0) active.push_back(next);
        active.erase(std::remove_if(active.begin(), active.end(),
                                    [&](size_t a) { return annotations[a].end <= d.start; }),
                     active.end());
        const Instance* best = nullptr;
        for (size_t a : active)
            if (!best || shorter(annotations[a], *best)) best = &annotations[a];
        // Annotations starting inside the event overlap it too.
        for (size_t a = next;
             a < annotations.size() && annotations[a].lane == lane && annotations[a].start < end;
             ++a)
            if (annotations[a].dur() > 0 && (!best || shorter(annotations[a], *best)))
                best = &annotations[a];
        if (best) label[k] = best->event;
    }
}

// CPU annotations: the innermost one around the runtime call that launched
// the work, on the call's thread.
void labelByLaunch(const Trace& trace, const DeviceActivities& activity,
                   const std::vector<Instance>& annotations, std::vector<int32_t>& label) {
    std::vector<int32_t> kept;
    for (const Instance& a : annotations)
        kept.push_back(a.event);
    std::sort(kept.begin(), kept.end());
    for (size_t k = 0; k < activity.events.size(); ++k) {
        for (int32_t e = activity.events[k].launcher; e >= 0; e = trace.events[size_t(e)].parent) {
            if (std::binary_search(kept.begin(), kept.end(), e)) {
                label[k] = e;
                break;
            }
        }
    }
}

struct Runs {
    std::vector<std::pair<int64_t, int32_t>> runs; // (duration, event)
    int64_t total = 0;
    void add(int64_t ns, int32_t event) {
        runs.push_back({ns, event});
        total += ns;
    }
};

AnnotationRow rowOf(std::string name, const Runs& instances) {
    AnnotationRow r;
    r.name = std::move(name);
    r.count = int64_t(instances.runs.size());
    r.total_ns = instances.total;
    const auto longest = std::max_element(instances.runs.begin(), instances.runs.end());
    r.max_ns = longest->first;
    r.longest = longest->second;
    r.min_ns = std::min_element(instances.runs.begin(), instances.runs.end())->first;
    r.mean_ns = double(r.total_ns) / double(r.count);
    double squares = 0;
    for (const auto& run : instances.runs)
        squares += (double(run.first) - r.mean_ns) * (double(run.first) - r.mean_ns);
    r.std_ns = r.count > 1 ? std::sqrt(squares / double(r.count - 1)) : 0;
    return r;
}

} // namespace

const char* toString(AnnotationSide side) {
    return side == AnnotationSide::Gpu ? "gpu" : "cpu";
}

AnnotationBreakdown userAnnotations(const Trace& trace, const DeviceActivities& activity,
                                    const AnnotationOptions& options) {
    AnnotationBreakdown out;
    out.rank = activity.rank;
    out.side = options.side;
    const std::vector<Instance> annotations = instancesOf(trace, activity, options);
    out.label.assign(activity.events.size(), -1);
    if (options.side == AnnotationSide::Gpu)
        labelByOverlap(activity, annotations, out.label);
    else
        labelByLaunch(trace, activity, annotations, out.label);

    // The instances by name, and each event's instance name.
    std::map<uint32_t, Runs> by_name;
    std::map<int32_t, uint32_t> name_of; // annotation event -> its name
    for (const Instance& a : annotations) {
        by_name[a.name].add(a.dur(), a.event);
        name_of[a.event] = a.name;
    }
    std::map<uint32_t, std::pair<int64_t, int64_t>> kernels_of; // name -> (count, ns)
    std::map<std::pair<uint32_t, uint32_t>, Runs> by_kernel;    // (annotation, kernel)
    for (size_t k = 0; k < activity.events.size(); ++k) {
        const DeviceActivity& d = activity.events[k];
        const int64_t ns = std::max<int64_t>(d.end - d.start, 0);
        if (out.label[k] < 0) {
            ++out.unannotated;
            out.unannotated_ns += ns;
            continue;
        }
        const uint32_t name = name_of[out.label[k]];
        kernels_of[name].first += 1;
        kernels_of[name].second += ns;
        by_kernel[{name, trace.events[size_t(d.event)].name}].add(ns, d.event);
    }

    for (const auto& [name, instances] : by_name) {
        AnnotationRow r = rowOf(trace.names[name], instances);
        std::tie(r.kernels, r.kernel_ns) = kernels_of[name];
        out.annotations.push_back(std::move(r));
    }
    std::stable_sort(
        out.annotations.begin(), out.annotations.end(),
        [](const AnnotationRow& a, const AnnotationRow& b) { return a.total_ns > b.total_ns; });
    // Kernels follow their annotation's order, the longest total first.
    std::map<std::string, size_t> rank_of;
    for (size_t i = 0; i < out.annotations.size(); ++i)
        rank_of[out.annotations[i].name] = i;
    for (const auto& [key, runs] : by_kernel) {
        AnnotatedKernelRow r{trace.names[key.first], trace.names[key.second],
                             int64_t(runs.runs.size()), runs.total};
        const auto longest = std::max_element(runs.runs.begin(), runs.runs.end());
        r.max_ns = longest->first;
        r.longest = longest->second;
        out.kernels.push_back(std::move(r));
    }
    std::stable_sort(out.kernels.begin(), out.kernels.end(),
                     [&](const AnnotatedKernelRow& a, const AnnotatedKernelRow& b) {
                         const size_t ra = rank_of[a.annotation], rb = rank_of[b.annotation];
                         return ra != rb ? ra < rb : a.total_ns > b.total_ns;
                     });
    return out;
}

} // namespace ts
