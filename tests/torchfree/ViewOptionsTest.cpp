// report/ViewOptions.h: the options the views declare in the catalog, read
// and checked in one place; `trace-stats` refusing an option a view does not
// take, or a bad value, by name; each view's help; and every declared option
// read by its view's printer.
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "GivenViewOptions.h"
#include "TestPaths.h"
#include "analysis/IdleTime.h"
#include "analysis/KernelSequences.h"
#include "analysis/LaunchStats.h"
#include "analysis/QueueLength.h"
#include "inspect/TraceExportCommand.h"
#include "inspect/TraceStatsCommand.h"
#include "inspect/TraceViewPrinters.h"
#include "inspect/TraceViews.h"
#include "report/ViewCatalog.h"

namespace ts {
namespace {

using views::GivenOption;
using views::OptionInfo;
using views::OptionValues;

const std::string kData = TRAINSCOPE_TEST_DATA_DIR;

std::string refusal(const std::vector<GivenOption>& given,
                    const std::vector<const OptionInfo*>& taken) {
    try {
        OptionValues::read(given, taken, views::cliTakersOf);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// Each kind of value: read typed, defaults taken, bad text refused naming the
// option, its text and what was expected.
TEST(ViewOptions, EachKindIsReadAndCheckedInOnePlace) {
    const OptionInfo count = OptionInfo::whole("--count", 1, 10, "how many").byDefault("3");
    const OptionInfo wait = OptionInfo::micros("--wait-us", 0, 1e6, "how long");
    const OptionInfo ratio = OptionInfo::decimal("--ratio", 0, 1, "a share");
    const OptionInfo side =
        OptionInfo::choice("--side", {{"gpu", ""}, {"cpu", ""}}, "which").byDefault("gpu");
    const OptionInfo name = OptionInfo::text("--name", "a name");
    const OptionInfo factor = OptionInfo::textList("--factor", "repeatable");
    const OptionInfo quick = OptionInfo::flag("--quick", "on or off");
    const std::vector<const OptionInfo*> all{&count, &wait, &ratio, &side, &name, &factor, &quick};

    const OptionValues none = OptionValues::read({}, all, nullptr);
    EXPECT_EQ(none.whole("--count"), 3); // the default
    EXPECT_FALSE(none.given("--count"));
    EXPECT_EQ(none.nanos("--wait-us"), std::nullopt);
    EXPECT_EQ(none.text("--side"), "gpu");
    EXPECT_EQ(none.text("--name"), std::nullopt);
    EXPECT_TRUE(none.texts("--factor").empty());
    EXPECT_FALSE(none.flag("--quick"));

    const OptionValues v = OptionValues::read({{"--count", "10"},
                                               {"--wait-us", "2.5"},
                                               {"--ratio", "0.25"},
                                               {"--side", "cpu"},
                                               {"--name", "aten::mm"},
                                               {"--factor", "a"},
                                               {"--factor", "b"},
                                               {"--quick", ""}},
                                              all, nullptr);
    EXPECT_EQ(v.whole("--count"), 10);
    EXPECT_TRUE(v.given("--count"));
    EXPECT_EQ(v.givenText("--wait-us"), "2.5");
    EXPECT_EQ(v.nanos("--wait-us"), 2500);
    EXPECT_EQ(v.decimal("--ratio"), 0.25);
    EXPECT_EQ(v.text("--side"), "cpu");
    EXPECT_EQ(v.text("--name"), "aten::mm");
    EXPECT_EQ(v.texts("--factor"), (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(v.flag("--quick"));

    EXPECT_EQ(refusal({{"--count", "11"}}, all),
              "Option --count is '11'; expected a whole number from 1 to 10 (default: 3).");
    EXPECT_EQ(refusal({{"--count", "2.0"}}, all),
              "Option --count is '2.0'; expected a whole number from 1 to 10 (default: 3).");
    EXPECT_EQ(refusal({{"--wait-us", "soon"}}, all),
              "Option --wait-us is 'soon'; expected microseconds from 0 to 1000000.");
    EXPECT_EQ(refusal({{"--wait-us", "-1"}}, all),
              "Option --wait-us is '-1'; expected microseconds from 0 to 1000000.");
    EXPECT_EQ(refusal({{"--ratio", "nan"}}, all),
              "Option --ratio is 'nan'; expected a number from 0 to 1.");
    EXPECT_EQ(refusal({{"--side", "both"}}, all),
              "Option --side is 'both'; expected 'gpu' or 'cpu' (default: gpu).");
    EXPECT_EQ(refusal({{"--name", "a"}, {"--name", "b"}}, all),
              "Option --name is given twice ('a' and 'b'); give it once.");
    EXPECT_EQ(refusal({{"--colour", "red"}}, all),
              "Option --colour is not one this command takes.");
    // A printer reading what its view does not declare, or as another kind.
    EXPECT_THROW(v.whole("--colour"), std::logic_error);
    EXPECT_THROW(v.whole("--wait-us"), std::logic_error);
}

// The declared defaults are the analyses' own, so that help tells the truth.
TEST(ViewOptions, DeclaredDefaultsAreTheAnalysesDefaults) {
    const auto values = [](const char* view) {
        return OptionValues::read({}, views::findView(view)->options, nullptr);
    };
    EXPECT_EQ(values("idle").nanos("--kernel-wait-us"), IdleOptions{}.kernel_wait_ns);
    EXPECT_EQ(values("launches").nanos("--runtime-cutoff-us"),
              LaunchStatOptions{}.runtime_cutoff_ns);
    EXPECT_EQ(values("launches").nanos("--launch-delay-cutoff-us"),
              LaunchStatOptions{}.launch_delay_cutoff_ns);
    EXPECT_EQ(values("queue").whole("--max-queue-length"), QueueLengthOptions{}.max_queue_length);
    EXPECT_EQ(values("kernel-sequences").whole("--min-pattern-len"),
              int64_t(SequenceOptions{}.min_pattern_len));
    EXPECT_EQ(values("distributed").whole("--span"), 1);
}

// Every declaration is complete; every default reads under its own
// declaration; options of one name agree on their kind (the CLI registers
// the name once).
TEST(ViewOptions, EveryDeclarationIsCompleteAndItsDefaultValid) {
    for (const OptionInfo* o : views::cliOptions()) {
        EXPECT_EQ(std::string(o->name).rfind("--", 0), 0u) << o->name;
        EXPECT_STRNE(o->help, "") << o->name;
        EXPECT_FALSE(views::cliTakersOf(*o).empty()) << o->name;
        if (o->kind == views::ValueKind::Choice) {
            EXPECT_GE(o->choices.size(), 2u) << o->name;
        }
        if (o->kind == views::ValueKind::Micros) {
            EXPECT_TRUE(std::isfinite(o->max)) << o->name;
        }
        EXPECT_NO_THROW(OptionValues::read({}, {o}, nullptr)) << o->name;
        for (const OptionInfo* same : views::cliOptions()) {
            if (std::string(same->name) == o->name) {
                EXPECT_EQ(same->kind, o->kind) << o->name;
            }
        }
    }
    for (const views::ViewInfo& view : views::catalog())
        EXPECT_NO_THROW(OptionValues::read({}, view.options, nullptr)) << view.name;
}

// A value each option accepts.
std::string sampleText(const OptionInfo& o) {
    switch (o.kind) {
    case views::ValueKind::Whole:
    case views::ValueKind::Micros:
    case views::ValueKind::Decimal:
        return std::to_string(static_cast<long long>(o.min));
    case views::ValueKind::Choice:
        return o.choices.back().name;
    case views::ValueKind::TextList:
        return "kernel:no_such_kernel=0.5";
    case views::ValueKind::Text:
        return "x";
    case views::ValueKind::Flag:
        return "";
    }
    return "";
}

bool takes(const std::vector<const OptionInfo*>& options, const std::string& name) {
    for (const OptionInfo* o : options)
        if (name == o->name) return true;
    return false;
}

struct StatsRun {
    int code;
    std::string err;
};

StatsRun traceStats(const std::string& view, const std::vector<GivenOption>& given) {
    TraceStatsOptions o;
    o.file = kData + "/kineto_call_stacks.json";
    o.cache = false;
    o.view = view;
    o.view_options = given;
    std::ostringstream out, err;
    const int code = runTraceStats(o, out, err);
    return {code, err.str()};
}

// Every option, given to a view (or the operator table) that does not take
// it, is refused naming the option and every view that takes it.
TEST(ViewOptions, AnOptionGivenToAViewThatDoesNotTakeItIsRefusedByName) {
    std::vector<std::string> views{""}; // the operator table
    for (const CliView& view : cliViews())
        views.push_back(view.info->name);
    size_t refused = 0;
    for (const OptionInfo* o : views::cliOptions()) {
        for (const std::string& view : views) {
            const std::vector<const OptionInfo*>& taken =
                view.empty() ? views::operatorTableOptions() : cliView(view).info->options;
            if (takes(taken, o->name)) continue;
            const StatsRun run = traceStats(view, {{o->name, sampleText(*o)}});
            EXPECT_EQ(run.code, 2) << o->name << " to --view " << view;
            EXPECT_EQ(run.err, "trace-stats: Option " + std::string(o->name) + " applies to " +
                                   views::cliTakersOf(o->name) + " only.\n")
                << o->name << " to --view " << view;
            ++refused;
        }
    }
    EXPECT_GT(refused, 200u);
    EXPECT_EQ(views::cliTakersOf("--step"), "--view area and critical-path");
    EXPECT_EQ(views::cliTakersOf("--kernel-wait-us"), "--view idle");
    EXPECT_EQ(views::cliTakersOf("--group-by"),
              "--view operators and the operator table (no --view)");
    EXPECT_EQ(views::cliTakersOf("--scope"), "the operator table (no --view)");
}

// Malformed and out-of-range numbers are refused naming the option and the
// text given, before any trace is read.
TEST(ViewOptions, BadNumbersAreRefusedNamingTheOptionAndValue) {
    size_t checked = 0;
    for (const CliView& view : cliViews()) {
        for (const OptionInfo* o : view.info->options) {
            if (o->kind != views::ValueKind::Whole && o->kind != views::ValueKind::Micros) continue;
            const std::string below = std::to_string(static_cast<long long>(o->min) - 1);
            for (const std::string& text : {std::string("abc"), std::string("12x"), below}) {
                const StatsRun run = traceStats(view.info->name, {{o->name, text}});
                EXPECT_EQ(run.code, 2) << view.info->name << ' ' << o->name << ' ' << text;
                EXPECT_EQ(run.err.rfind("trace-stats: Option " + std::string(o->name) + " is '" +
                                            text + "'; expected " + views::expectedValue(*o),
                                        0),
                          0u)
                    << run.err;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 30u);
    const StatsRun run = traceStats("idle", {{"--kernel-wait-us", "2e9"}});
    EXPECT_EQ(run.err, "trace-stats: Option --kernel-wait-us is '2e9'; expected microseconds "
                       "from 0 to 1000000000 (default: 30, HTA's).\n");
}

// `trace-stats --view NAME --help` shows each option of the view with its
// value, range and default; --view's help lists every view's options.
TEST(ViewOptions, EachViewsHelpListsItsOptions) {
    for (const CliView& view : cliViews()) {
        const std::string help = cliViewOptionsHelp(view);
        EXPECT_NE(help.find(view.info->summary), std::string::npos) << help;
        for (const OptionInfo* o : view.info->options) {
            EXPECT_NE(help.find(std::string("  ") + o->name), std::string::npos) << help;
            EXPECT_NE(help.find(o->help), std::string::npos) << help;
            EXPECT_NE(help.find(views::valueAndDefault(*o)), std::string::npos) << help;
        }
    }
    const std::string idle = cliViewOptionsHelp(cliView("idle"));
    EXPECT_NE(idle.find("  --kernel-wait-us US\n"), std::string::npos) << idle;
    EXPECT_NE(idle.find("microseconds from 0 to 1000000000; default: 30, HTA's"), std::string::npos)
        << idle;
    EXPECT_NE(cliViewHelp().find("options: --kernel-wait-us, --span"), std::string::npos);
    EXPECT_NE(cliOptionHelp("--group-by").find("--view operators: how operators are grouped"),
              std::string::npos)
        << cliOptionHelp("--group-by");
}

// Every option a view declares is read by its printer (or, without --view,
// by the operator table's): each given alone, on a trace or folder the view
// reads, whatever the printer then makes of it.
TEST(ViewOptions, EveryDeclaredOptionIsReadByItsPrinter) {
    const auto readBy = [](const std::string& view, void (*print)(TraceViewRequest&),
                           const std::vector<const OptionInfo*>& taken, bool folder,
                           const OptionInfo& option) {
        TraceStatsOptions o;
        o.view = view;
        o.cache = false;
        o.file = folder             ? kData + "/distributed_hta"
                 : view == "memory" ? kData + "/tb_plugin/test_memory_view.json"
                 : view.empty()     ? kData + "/torch_profiler_sample.json"
                                    : kData + "/kineto_call_stacks.json";
        const OptionValues values =
            OptionValues::read({{option.name, sampleText(option)}}, taken, nullptr);
        std::ostringstream out, err;
        std::optional<TraceInput> input;
        TraceInput::Options uncached;
        uncached.cache = false;
        if (!folder) input.emplace(o.file, uncached, err);
        TraceViewRequest request{o, values, input ? &*input : nullptr, out, err};
        try {
            print(request);
        } catch (const std::exception&) {
            // the sample may not fit the trace: what counts is that it was read
        }
        return values.read().count(option.name) == 1;
    };
    for (const OptionInfo* o : views::operatorTableOptions())
        EXPECT_TRUE(readBy("", printers::operatorTable, views::operatorTableOptions(), false, *o))
            << o->name;
    size_t read = 0;
    for (const CliView& view : cliViews()) {
        const bool folder = view.info->input != views::Input::Trace;
        for (const OptionInfo* o : view.info->options) {
            EXPECT_TRUE(readBy(view.info->name, view.print, view.info->options, folder, *o))
                << o->name << " of --view " << view.info->name;
            ++read;
        }
    }
    EXPECT_EQ(read, 32u);
}

// trace-export takes the window options of critical-path, with the same
// checks.
TEST(ViewOptions, TraceExportSharesTheWindowOptions) {
    for (const OptionInfo* o : views::windowOptions())
        EXPECT_TRUE(takes(views::findView("critical-path")->options, o->name)) << o->name;
    TraceExportOptions e;
    e.trace.file = kData + "/kineto_call_stacks.json";
    e.critical_path_out = ::testing::TempDir() + "/never_written.json";
    test::setViewOption(e.trace, "--instance", "-2");
    std::ostringstream out, err;
    EXPECT_EQ(runTraceExport(e, out, err), 2);
    EXPECT_EQ(err.str(),
              "trace-export: Option --instance is '-2'; expected a whole number, 0 or more.\n");
}

} // namespace
} // namespace ts
