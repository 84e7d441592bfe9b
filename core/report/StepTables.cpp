#include "report/StepTables.h"

#include "report/GpuTraceReport.h"
#include "report/MarkdownTable.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …

Column roleColumn(GpuRole role) {
    return Column{std::string(keyOf(role)) + "_us",
                  std::string(toString(role)) + " (us)",
                  "",
                  ColumnKind::Number,
                  false,
                  ColumnUnit::Microseconds};
}

} // namespace

table::TableSpec averageStepTable(const std::vector<std::string>& categories,
                                  const std::vector<double>& average_us) {
    table::TableSpec spec;
    spec.title = "Average step";
    spec.columns = {
        Column{step_column::kCategory, "Category", "Where the step's time went"},
        Column{step_column::kTimeUs, "Time (us)", "Mean over the steps", ColumnKind::Number, false,
               ColumnUnit::Microseconds},
        Column{step_column::kPercent, "Percentage (%)", "Share of the average step",
               ColumnKind::Number, false, ColumnUnit::Percent},
    };
    double total = 0;
    for (double us : average_us)
        total += us;
    for (size_t c = 0; c < categories.size() && c < average_us.size(); ++c) {
        const double us = average_us[c], percent = total > 0 ? 100 * us / total : 0.0;
        spec.rows.push_back({table::textCell(categories[c]), table::numberCell(fixed(us, 1), us),
                             table::numberCell(fixed(percent, 2), percent)});
    }
    return spec;
}

table::TableSpec stepTimeTable(const GpuOverview& o, const std::vector<GpuRole>& roles) {
    table::TableSpec spec;
    spec.title = "Steps";
    spec.columns.push_back(Column{"step", "Step", "The step's label in the trace"});
    for (GpuRole r : roles)
        spec.columns.push_back(roleColumn(r));
    for (const GpuStep& s : o.steps) {
        std::vector<table::Cell> row{table::textCell(s.label)};
        for (GpuRole r : roles) {
            const double ns = double(s.cost_ns[size_t(r)]);
            row.push_back(table::numberCell(microsText(ns), ns / 1000));
        }
        spec.rows.push_back(std::move(row));
    }
    std::vector<table::Cell> average{table::textCell("average")};
    for (GpuRole r : roles) {
        const double us = o.average_ns[size_t(r)] / 1000;
        average.push_back(table::numberCell(fixed(us, 1), us));
    }
    spec.rows.push_back(std::move(average));
    return spec;
}

std::vector<GpuRole> shownRoles(const GpuOverview& o) {
    std::vector<GpuRole> roles;
    if (o.showsGpu())
        roles.insert(roles.end(), {GpuRole::Kernel, GpuRole::Memcpy, GpuRole::Memset});
    if (o.has_communication) roles.push_back(GpuRole::Communication);
    if (o.showsGpu()) roles.push_back(GpuRole::Runtime);
    roles.insert(roles.end(), {GpuRole::DataLoader, GpuRole::CpuExec, GpuRole::Other});
    return roles;
}

std::vector<GpuRole> everyRole() {
    std::vector<GpuRole> roles;
    for (size_t r = 0; r < kGpuRoleCount; ++r)
        roles.push_back(GpuRole(r));
    return roles;
}

} // namespace ts
