// report/TableSpec.h: one table description, printed as text, CSV and JSON;
// report/GpuTables.h's tables built on it; inspect/TraceViews.h's registry
// of `trace-stats --view` over report/ViewCatalog.h.
#include <set>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "inspect/TraceViews.h"
#include "report/DiffTables.h"
#include "report/DistributedTables.h"
#include "report/GpuTables.h"
#include "report/MemoryTables.h"
#include "report/ModuleTables.h"
#include "report/OpTables.h"
#include "report/RooflineReport.h"
#include "report/RunTables.h"
#include "report/StepTables.h"
#include "report/TableSpec.h"
#include "report/ViewCatalog.h"

namespace ts {
namespace {

using table::Column;
using table::ColumnKind;

table::TableSpec sample() {
    table::TableSpec t;
    t.title = "Sample";
    t.columns = {Column{"name", "Name", "", ColumnKind::Text},
                 Column{"calls", "Calls", "", ColumnKind::Integer},
                 Column{"time_us", "Time (us)", "", ColumnKind::Number},
                 Column{"tc", "Tensor Cores", "", ColumnKind::YesNo},
                 Column{"note", "Note", "", ColumnKind::Text, true}};
    t.rows = {{table::textCell("aten::mm, fused"), table::numberCell("3", 3),
               table::numberCell("12.5", 12.5), table::yesNoCell(true), table::Cell{}},
              {table::textCell("aten::add"), table::numberCell("1", 1), table::Cell{"-"},
               table::yesNoCell(false), table::Cell{}}};
    return t;
}

TEST(TableSpec, EmptyOptionalColumnsAreHiddenOthersKept) {
    const table::TableSpec shown = table::shown(sample());
    ASSERT_EQ(shown.columns.size(), 4u);
    EXPECT_EQ(shown.columns.back().key, "tc");
    EXPECT_EQ(shown.rows.front().size(), 4u);
    table::TableSpec filled = sample();
    filled.rows[1][4] = table::textCell("x");
    EXPECT_EQ(table::shown(filled).columns.size(), 5u);
}

TEST(TableSpec, TextAlignsNumbersRightAndCsvQuotes) {
    const table::TableSpec t = table::shown(sample());
    EXPECT_EQ(table::toText(t), "Name             Calls  Time (us)  Tensor Cores\n"
                                "-----------------------------------------------\n"
                                "aten::mm, fused      3       12.5  Yes\n"
                                "aten::add            1  -          No\n");
    EXPECT_EQ(table::toCsv(t), "Name,Calls,Time (us),Tensor Cores\n"
                               "\"aten::mm, fused\",3,12.5,Yes\n"
                               "aten::add,1,-,No\n");
    EXPECT_EQ(table::toCsv(table::firstRows(t, 1)), "Name,Calls,Time (us),Tensor Cores\n"
                                                    "\"aten::mm, fused\",3,12.5,Yes\n");
    EXPECT_EQ(table::firstRows(t, 0).rows.size(), 2u);
}

TEST(TableSpec, JsonWritesEachKindAsItsType) {
    const nlohmann::json rows = table::rowsJson(sample());
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["name"], "aten::mm, fused");
    EXPECT_TRUE(rows[0]["calls"].is_number_integer());
    EXPECT_EQ(rows[0]["calls"], 3);
    EXPECT_DOUBLE_EQ(rows[0]["time_us"].get<double>(), 12.5);
    EXPECT_EQ(rows[0]["tc"], true);
    EXPECT_TRUE(rows[1]["time_us"].is_null()); // unknown, not 0
    EXPECT_EQ(rows[1]["tc"], false);
    table::TableSpec texts = sample();
    texts.json_numbers = false;
    EXPECT_EQ(table::rowsJson(texts)[0]["calls"], "3");
}

TEST(TableSpec, DataCsvWritesKeysAndExactValues) {
    table::TableSpec t = sample();
    t.rows[0][2] = table::numberCell("0.3", 0.1 + 0.2); // text rounded, value not
    EXPECT_EQ(table::toDataCsv(t), "name,calls,time_us,tc,note\n"
                                   "\"aten::mm, fused\",3,0.30000000000000004,true,\n"
                                   "aten::add,1,,false,\n");
}

TEST(TableSpec, LeadingColumnAndAppendedRowsMakeOneTableOfSeveral) {
    table::TableSpec all;
    for (const char* device : {"GPU0", "GPU1"})
        table::appendRows(all,
                          table::withLeadingColumn(
                              sample(), Column{"device", "Device", "", ColumnKind::Text}, device));
    ASSERT_EQ(all.columns.size(), 6u);
    EXPECT_EQ(all.columns[0].key, "device");
    ASSERT_EQ(all.rows.size(), 4u);
    EXPECT_EQ(all.rows[2][0].text, "GPU1");
    EXPECT_EQ(all.rows[2][1].text, "aten::mm, fused");
}

TEST(TableSpec, ColumnIndexFindsKeys) {
    EXPECT_EQ(sample().columnIndex("time_us"), 2);
    EXPECT_EQ(sample().columnIndex("nope"), -1);
}

// The plugin's kernel tables: by name, and by operator with the launch
// configuration first; the occupancy columns only where the trace has them.
TEST(GpuTables, KernelColumnsFollowThePlugin) {
    KernelTables k;
    KernelOpRow row;
    row.name = "void gemm";
    row.calls = 3;
    row.total_ns = 55000;
    row.min_ns = 10000;
    row.max_ns = 25000;
    row.op_name = "aten::mm";
    row.grid = "[1, 1, 1]";
    row.block = "[32, 1, 1]";
    row.registers = "64";
    row.shared_memory = "0";
    k.by_name.push_back(row);
    k.by_op.push_back(row);
    const table::TableSpec by_name = table::shown(kernelTableSpec(k, false));
    ASSERT_EQ(by_name.columns.size(), 7u);
    EXPECT_EQ(by_name.columns[3].title, "Total (us)");
    EXPECT_EQ(by_name.rows[0][3].text, "55");
    EXPECT_DOUBLE_EQ(by_name.rows[0][3].value, 55.0);
    EXPECT_EQ(by_name.rows[0][4].text, "18.3");
    k.has_occupancy = true;
    const table::TableSpec by_op = table::shown(kernelTableSpec(k, true));
    ASSERT_EQ(by_op.columns.size(), 14u);
    EXPECT_EQ(by_op.columns[5].title, "Shared Memory");
    EXPECT_EQ(by_op.columns[7].title, "Op Tensor Cores Eligible");
    EXPECT_EQ(by_op.columns.back().title, "Mean Est. Achieved Occupancy (%)");
    EXPECT_EQ(by_op.columnIndex(kernel_column::kTotalUs), 9);
}

// Grouped by call stack, the column is shown when any row has a stack: the
// CLI once looked at the top row only and dropped every stack of the H100
// traces, whose busiest operator (aten::mm) was called from C++.
TEST(GpuTables, CallStacksShownWhenAnyRowHasOne) {
    DeviceOpTable t;
    t.rows.resize(2);
    t.rows[0].name = "aten::mm";
    t.rows[1].name = "aten::addmm";
    t.rows[1].call_stack = "model.py(12): forward";
    const table::TableSpec shown = table::shown(deviceOpTableSpec(t));
    ASSERT_EQ(shown.columns.size(), 11u); // no Input Shape
    EXPECT_EQ(shown.columns[1].title, "Call Stack");
    EXPECT_EQ(shown.rows[1][1].text, "model.py(12): forward");
    t.rows[1].call_stack.clear();
    EXPECT_EQ(table::shown(deviceOpTableSpec(t)).columns.size(), 10u);
}

// Every view the catalog offers on the CLI has a printer; the help and the
// error for an unknown name list them all.
TEST(ViewCatalog, CliViewsComeFromTheCatalog) {
    size_t offered = 0;
    for (const views::ViewInfo& info : views::catalog())
        offered += (info.surfaces & views::Cli) ? 1 : 0;
    EXPECT_EQ(cliViews().size(), offered);
    EXPECT_EQ(std::string(cliView("kernels-by-op").info->title), "Kernels by operator");
    try {
        cliView("graphs");
        FAIL() << "no error for an unknown view";
    } catch (const std::invalid_argument& error) {
        const std::string text = error.what();
        EXPECT_NE(text.find("Option --view is 'graphs'"), std::string::npos) << text;
        for (const CliView& view : cliViews())
            EXPECT_NE(text.find(std::string("'") + view.info->name + "'"), std::string::npos)
                << text;
    }
    const std::string help = cliViewHelp();
    for (const CliView& view : cliViews())
        EXPECT_NE(help.find(std::string(view.info->name) + ": "), std::string::npos) << help;
}

TEST(ViewCatalog, NamesAreUniqueAndFoundInAnyCase) {
    for (const views::ViewInfo& info : views::catalog()) {
        EXPECT_EQ(views::findView(info.name), &info) << info.name;
        EXPECT_NE(std::string(views::groupTitle(info.group)), "");
    }
    EXPECT_EQ(views::findView("Kernels"), views::findView("kernels"));
    EXPECT_EQ(views::findView("kernel"), nullptr);
    EXPECT_EQ(views::quotedNames(views::Cli).rfind(" or 'distributed'"),
              views::quotedNames(views::Cli).size() - std::string(" or 'distributed'").size());
}

// Every table of the CLI and the GUI, empty: each has a title and columns
// whose keys (the JSON and data-CSV names, and how views find a column) are
// unique and whose titles are not empty. The experiments' tables are checked
// beside their layer (tests/core).
TEST(TableSpec, EveryTableHasUniqueKeysAndTitles) {
    const std::vector<table::TableSpec> tables = {
        kernelTableSpec(KernelTables{}, false),
        kernelTableSpec(KernelTables{}, true),
        deviceOpTableSpec(DeviceOpTable{}),
        opTableSpec(OpTable{}),
        memoryOperatorTable({}),
        memoryAllocationTable({}),
        averageStepTable({}, {}),
        stepTimeTable(GpuOverview{}, everyRole()),
        moduleTreeTable(ModuleView{}, ModuleNames::Path),
        moduleCallTable({}),
        rooflineTable({}),
        rankTable({}),
        stepTable({}),
        commOpTable({}),
        deviceTable(DistributedView{}),
        diffCategoryTable({}),
        diffRowTable({}, DiffRowsOf{}),
        diffRowTable({}, DiffRowsOf{true, true, DiffText::Data}),
        runListTable({}),
        runComparisonTable({}),
    };
    for (const table::TableSpec& t : tables) {
        EXPECT_FALSE(t.title.empty()) << t.columns.front().key;
        ASSERT_FALSE(t.columns.empty()) << t.title;
        std::set<std::string> keys;
        for (const Column& c : t.columns) {
            EXPECT_TRUE(keys.insert(c.key).second) << t.title << ": " << c.key << " twice";
            EXPECT_FALSE(c.title.empty()) << t.title << ": " << c.key;
            EXPECT_FALSE(c.key.empty()) << t.title << ": " << c.title;
        }
    }
}

} // namespace
} // namespace ts
