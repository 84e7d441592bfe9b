#include "inspect/TraceDiffCommand.h"

#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/TraceDiff.h"
#include "inspect/ExitCodes.h"
#include "report/TraceDiffReport.h"
#include "sources/SourceRegistry.h"

namespace ts {

namespace {

constexpr size_t kTextRows = 10;

std::optional<size_t> parseStep(const std::string& text, const char* option) {
    if (text.empty()) return std::nullopt;
    size_t used = 0;
    unsigned long long value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text[0] == '-' || text[0] == '+')
        throw std::invalid_argument(std::string("Option ") + option + " is '" + text +
                                    "'; expected a step index (0 for the first step).");
    return static_cast<size_t>(value);
}

} // namespace

int runTraceDiff(const TraceDiffCommandOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (options.format != "text" && options.format != "csv" && options.format != "json")
            throw std::invalid_argument("Option --format is '" + options.format +
                                        "'; expected 'text', 'csv' or 'json'.");
        TraceDiffOptions diff_options;
        diff_options.label_a = options.a;
        diff_options.label_b = options.b;
        diff_options.step_a = parseStep(options.step_a, "--step-a");
        diff_options.step_b = parseStep(options.step_b, "--step-b");
        diff_options.gpu.plugin_compatible = options.plugin_compatible;
        const auto read = [](const std::string& path) {
            sources::requireKind(sources::recognise(path), {views::Input::Trace}, "trace-diff");
            return readTraceDiffInput(path);
        };
        const Trace a = read(options.a);
        const Trace b = read(options.b);
        const TraceDiff diff = computeTraceDiff(a, b, diff_options);
        if (options.format == "json")
            out << traceDiffJson(diff, options.limit).dump(2) << '\n';
        else if (options.format == "csv")
            out << traceDiffCsv(diff, options.limit);
        else
            out << traceDiffText(diff, options.limit ? options.limit : kTextRows);
        return exit_code::kOk;
    } catch (const std::exception& e) {
        err << "trace-diff: " << e.what() << '\n';
        return exit_code::kBadInput;
    }
}

} // namespace ts
