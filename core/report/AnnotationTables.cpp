#include "report/AnnotationTables.h"

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
using diagnosis::micros;
using diagnosis::rankColumn;
using diagnosis::usColumn;

const char* kNoAnnotation = "(no annotation)";

} // namespace

table::TableSpec annotationTable(const std::vector<AnnotationBreakdown>& ranks) {
    TableSpec spec;
    const bool gpu = ranks.empty() || ranks[0].side == AnnotationSide::Gpu;
    spec.title = gpu ? "GPU annotations" : "CPU annotations";
    spec.columns = {
        Column{"name", "Annotation",
               gpu ? "A record_function range as the GPU ran it (gpu_user_annotation)"
                   : "A record_function range on its CPU thread (user_annotation)"},
        rankColumn(),
        Column{"count", "Instances", "", ColumnKind::Integer},
        usColumn("total_us", "Total (us)", "The instances' durations, summed (HTA's sum)"),
        usColumn("mean_us", "Mean (us)"),
        usColumn("std_us", "Std (us)", "Sample standard deviation"),
        usColumn("min_us", "Min (us)"),
        usColumn("max_us", "Max (us)"),
        Column{"kernels", "Kernels",
               gpu ? "Device work on the annotation's stream whose shortest overlapping "
                     "annotation it is"
                   : "Device work launched inside the annotation (its innermost) on its thread",
               ColumnKind::Integer},
        usColumn("kernel_time_us", "Kernel Time (us)", "Their GPU durations, summed"),
        diagnosis::percentColumn("kernel_pct", "Kernel Time (%)",
                                 "Kernel time over the annotation's total time")};
    for (const AnnotationBreakdown& r : ranks) {
        for (const AnnotationRow& a : r.annotations) {
            const double pct = a.total_ns > 0 ? 100 * double(a.kernel_ns) / double(a.total_ns) : 0;
            spec.rows.push_back({textCell(a.name), integerCell(r.rank), integerCell(a.count),
                                 micros(double(a.total_ns)), micros(a.mean_ns), micros(a.std_ns),
                                 micros(double(a.min_ns)), micros(double(a.max_ns)),
                                 integerCell(a.kernels), micros(double(a.kernel_ns)),
                                 diagnosis::percentCell(pct)});
            spec.row_events.push_back(a.longest);
        }
        if (r.unannotated > 0) {
            spec.rows.push_back({textCell(kNoAnnotation), integerCell(r.rank), integerCell(0),
                                 Cell{}, Cell{}, Cell{}, Cell{}, Cell{}, integerCell(r.unannotated),
                                 micros(double(r.unannotated_ns)), Cell{}});
            spec.row_events.push_back(-1);
        }
    }
    return spec;
}

table::TableSpec annotatedKernelTable(const std::vector<AnnotationBreakdown>& ranks) {
    TableSpec spec;
    const bool gpu = ranks.empty() || ranks[0].side == AnnotationSide::Gpu;
    spec.title = gpu ? "Kernels by GPU annotation" : "Kernels by CPU annotation";
    spec.columns = {Column{"annotation", "Annotation", "The annotation's name"},
                    rankColumn(),
                    Column{"count", "Calls", "", ColumnKind::Integer},
                    usColumn("total_us", "Total (us)"),
                    usColumn("max_us", "Max (us)", "Its longest run (the row's event)"),
                    Column{"kernel", "Kernel", "The kernel, copy, set or synchronisation"}};
    for (const AnnotationBreakdown& r : ranks)
        for (const AnnotatedKernelRow& k : r.kernels) {
            spec.rows.push_back({textCell(k.annotation), integerCell(r.rank), integerCell(k.count),
                                 micros(double(k.total_ns)), micros(double(k.max_ns)),
                                 textCell(k.kernel)});
            spec.row_events.push_back(k.longest);
        }
    return spec;
}

nlohmann::json annotationsJson(const std::vector<AnnotationBreakdown>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    for (const AnnotationBreakdown& r : ranks) {
        nlohmann::json annotations = rowsJson(annotationTable({r}), "rank");
        nlohmann::json kernels = rowsJson(annotatedKernelTable({r}), "rank");
        // The unannotated work has fields of its own.
        if (r.unannotated > 0) annotations.erase(annotations.size() - 1);
        out.push_back({{"rank", r.rank},
                       {"annotations", std::move(annotations)},
                       {"kernels", std::move(kernels)},
                       {"unannotated_kernels", r.unannotated},
                       {"unannotated_us", double(r.unannotated_ns) / 1000}});
    }
    const bool gpu = ranks.empty() || ranks[0].side == AnnotationSide::Gpu;
    return {{"annotations", gpu ? "gpu" : "cpu"}, {"ranks", std::move(out)}};
}

} // namespace ts
