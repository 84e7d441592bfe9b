#include "gpu/OverviewContent.h"

#include <numeric>

#include <QCoreApplication>

#include "analysis/GpuTraceAnalysis.h"

namespace ts::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("OverviewContent", text);
}

} // namespace

double OverviewContent::averageTotalUs() const {
    return std::accumulate(average_us.begin(), average_us.end(), 0.0);
}

OverviewContent overviewOfTrace(const GpuTraceAnalysis& analysis) {
    OverviewContent content;
    const GpuOverview& o = analysis.overview;
    if (analysis.empty() || o.steps.empty()) {
        content.empty_message =
            tr("This trace has no Kineto (torch.profiler) events, so there is no step "
               "breakdown; the Operators and Timeline tabs show what it has.");
        return content;
    }
    // The plugin hides the GPU categories of a trace without GPU work.
    std::vector<GpuRole> roles;
    if (o.showsGpu())
        roles = {GpuRole::Kernel,  GpuRole::Memcpy,     GpuRole::Memset,  GpuRole::Communication,
                 GpuRole::Runtime, GpuRole::DataLoader, GpuRole::CpuExec, GpuRole::Other};
    else
        roles = {GpuRole::DataLoader, GpuRole::CpuExec, GpuRole::Other};
    for (GpuRole role : roles) {
        content.categories << QString::fromLatin1(toString(role));
        content.average_us.push_back(o.average_ns[size_t(role)] / 1000.0);
    }
    for (const GpuStep& step : o.steps) {
        OverviewStep s;
        s.label = QString::fromStdString(step.label);
        bool numbered = false;
        const qlonglong number = s.label.toLongLong(&numbered);
        if (numbered) {
            s.step = number;
            s.start_ns = step.start_ns;
            s.end_ns = step.end_ns;
        }
        for (GpuRole role : roles)
            s.us.push_back(double(step.cost_ns[size_t(role)]) / 1000.0);
        content.steps.push_back(std::move(s));
    }
    content.source =
        o.showsGpu()
            ? tr("Kineto trace: %1 steps on %2 GPUs").arg(o.steps.size()).arg(o.used_devices.size())
        : analysis.device_time_without_kernels
            ? tr("Trainscope trace of a CUDA run: %1 steps. Its profiler times operators on the "
                 "GPU but records no kernels, so the GPU's work shows as CPU Exec; the "
                 "Operators tab has each operator's CUDA time.")
                  .arg(o.steps.size())
            : tr("Kineto trace without GPU work: %1 steps, CPU categories").arg(o.steps.size());
    content.gpus = analysis.metrics.gpus;
    content.recommendations = analysis.recommendations;
    return content;
}

OverviewContent overviewOfRun(const RunRecord& run) {
    OverviewContent content;
    if (run.steps.empty()) {
        content.empty_message = tr("This run has no step records (steps.csv) yet.");
        return content;
    }
    content.categories = {tr("Data"),     tr("Copy"),      tr("Forward"),
                          tr("Backward"), tr("Optimizer"), tr("Other")};
    content.average_us.assign(size_t(content.categories.size()), 0.0);
    for (const StepRecord& step : run.steps) {
        const PhaseTimes& p = step.phases;
        OverviewStep s;
        s.label = QString::number(step.global_step);
        for (double ms :
             {p.data_ms, p.copy_ms, p.forward_ms, p.backward_ms, p.optimizer_ms, p.other_ms})
            s.us.push_back(ms * 1000.0);
        for (size_t i = 0; i < s.us.size(); ++i)
            content.average_us[i] += s.us[i] / double(run.steps.size());
        content.steps.push_back(std::move(s));
    }
    content.source =
        tr("Trainscope run: %1 steps, phases timed by the trainer").arg(run.steps.size());
    return content;
}

} // namespace ts::gui
