#include "inspect/TraceViews.h"

#include <stdexcept>
#include <utility>

#include "inspect/TraceViewPrinters.h"

namespace ts {
namespace {

using Printer = void (*)(TraceViewRequest&);

// The CLI's printer of each catalog entry offered on the CLI.
constexpr std::pair<const char*, Printer> kPrinters[] = {
    {"overview", printers::gpuView},
    {"operators", printers::gpuView},
    {"kernels", printers::gpuView},
    {"kernels-by-op", printers::gpuView},
    {"memory", printers::memory},
    {"modules", printers::modules},
    {"distributed", printers::distributed},
    {"temporal", printers::temporal},
    {"idle", printers::idle},
    {"launches", printers::launches},
    {"queue", printers::queue},
    {"memory-bw", printers::memoryBandwidth},
    {"kernel-types", printers::kernelTypes},
    {"annotations", printers::annotations},
    {"kernel-sequences", printers::kernelSequences},
    {"critical-path", printers::criticalPath},
    {"area", printers::area},
};

Printer printerOf(const std::string& name) {
    for (const auto& [view, print] : kPrinters)
        if (name == view) return print;
    return nullptr;
}

} // namespace

const std::vector<CliView>& cliViews() {
    static const std::vector<CliView> list = [] {
        std::vector<CliView> out;
        for (const views::ViewInfo& info : views::catalog()) {
            if (!(info.surfaces & views::Cli)) continue;
            Printer print = printerOf(info.name);
            if (!print)
                throw std::logic_error(std::string("view '") + info.name +
                                       "' is offered on the CLI but has no printer");
            out.push_back({&info, print});
        }
        return out;
    }();
    return list;
}

const CliView& cliView(const std::string& name) {
    for (const CliView& view : cliViews())
        if (name == view.info->name) return view;
    throw std::invalid_argument("Option --view is '" + name + "'; expected " +
                                views::quotedNames(views::Cli) + ".");
}

std::string cliViewHelp() {
    std::string out = "one view of the trace instead of the operator table (--view NAME --help: "
                      "what it takes):";
    for (const CliView& view : cliViews()) {
        out += std::string("\n  ") + view.info->name + ": " + view.info->summary;
        const std::vector<const views::OptionInfo*>& options = view.info->options;
        for (size_t i = 0; i < options.size(); ++i)
            out += std::string(i == 0 ? "\n      options: " : ", ") + options[i]->name;
    }
    return out;
}

std::string cliViewOptionsHelp(const CliView& view) {
    std::string out = std::string(view.info->title) + ": " + view.info->summary + "\n";
    if (view.info->options.empty())
        return out + "\n--view " + view.info->name + " takes no options of its own.\n";
    out += std::string("\nOptions of --view ") + view.info->name + ":\n";
    for (const views::OptionInfo* option : view.info->options) {
        const std::string value = views::valuePlaceholder(*option);
        out += std::string("  ") + option->name + (value.empty() ? "" : " " + value) + "\n      " +
               option->help + "\n";
        const std::string detail = views::valueAndDefault(*option);
        if (!detail.empty()) out += "      " + detail + "\n";
        for (const views::OptionChoice& choice : option->choices)
            if (*choice.help)
                out += std::string("      ") + choice.name + ": " + choice.help + "\n";
    }
    return out;
}

std::string cliOptionHelp(const std::string& name) {
    std::string out;
    for (const views::OptionInfo* option : views::cliOptions()) {
        if (name != option->name) continue;
        out += (out.empty() ? "" : "; ") + views::cliTakersOf(*option) + ": " +
               views::helpLine(*option);
    }
    return out;
}

views::OptionValues readViewOptions(const TraceStatsOptions& options) {
    const std::vector<const views::OptionInfo*>& taken =
        options.view.empty() ? views::operatorTableOptions() : cliView(options.view).info->options;
    return views::OptionValues::read(options.view_options, taken, views::cliTakersOf);
}

} // namespace ts
