#include "report/KernelSequenceTables.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "report/DiagnosisCells.h"

namespace ts {
namespace {

using namespace table; // Cell, Column, ColumnKind, ColumnUnit, …
using diagnosis::micros;
using diagnosis::rankColumn;
using diagnosis::usColumn;

Column sequenceColumn() {
    return Column{"sequence", "#", "The sequence's number, the most frequent first",
                  ColumnKind::Integer};
}

// The pattern as HTA writes it, but with its names set apart for reading.
std::string kernelList(const KernelSequence& s) {
    std::string out;
    for (const SequenceKernel& k : s.kernels)
        out += (out.empty() ? "" : " | ") + k.name;
    return out;
}

} // namespace

table::TableSpec kernelSequenceTable(const std::vector<KernelSequences>& ranks) {
    TableSpec spec;
    spec.title = "Kernel sequences";
    spec.columns = {
        sequenceColumn(),
        rankColumn(),
        Column{"operator", "Operator", "The calls that launched the sequence"},
        Column{"length", "Kernels", "Device work per call: kernels, copies, sets",
               ColumnKind::Integer},
        Column{"count", "Calls", "How often the sequence recurs", ColumnKind::Integer},
        usColumn("cpu_time_us", "CPU Time (us)", "The calls' durations, summed"),
        usColumn("gpu_time_us", "GPU Time (us)", "The work's durations, summed"),
        usColumn("gpu_span_us", "GPU Span (us)",
                 "From each call's first work's start to its last's end, summed"),
        usColumn("gaps_us", "Gaps (us)",
                 "GPU span not covered by the sequence's own kernels, summed: the GPU idle or "
                 "busy with other work between them, where a fused kernel would not wait"),
        usColumn("first_delay_us", "First Delay (us)",
                 "From each call's start to its first work's start, summed"),
        usColumn("launch_delay_us", "Launch Delay (us)",
                 "Each kernel's delay from its launch call's end to its start, summed"),
        Column{"pattern", "Pattern", "The kernels in the order they started"}};
    for (const KernelSequences& r : ranks)
        for (size_t i = 0; i < r.sequences.size(); ++i) {
            const KernelSequence& s = r.sequences[i];
            const int64_t gaps = std::max<int64_t>(s.span_ns - s.gpu_ns, 0);
            spec.rows.push_back({integerCell(int64_t(i + 1)), integerCell(r.rank), textCell(s.op),
                                 integerCell(int64_t(s.kernels.size())), integerCell(s.count),
                                 micros(double(s.cpu_ns)), micros(double(s.gpu_ns)),
                                 micros(double(s.span_ns)), micros(double(gaps)),
                                 micros(double(s.first_delay_ns)),
                                 micros(double(s.launch_delay_ns)), textCell(kernelList(s))});
            spec.row_events.push_back(s.longest);
        }
    return spec;
}

table::TableSpec sequenceKernelTable(const std::vector<KernelSequences>& ranks) {
    TableSpec spec;
    spec.title = "Kernels of each sequence";
    spec.columns = {sequenceColumn(),
                    rankColumn(),
                    diagnosis::identityColumn("position", "Position", "1 for the first to start"),
                    usColumn("gpu_time_us", "GPU Time (us)", "Over the sequence's calls"),
                    usColumn("mean_us", "Mean (us)", "Per call"),
                    usColumn("delay_us", "Launch Delay (us)",
                             "From its launch call's end to its start, summed"),
                    usColumn("mean_delay_us", "Mean Delay (us)", "Per call"),
                    Column{"name", "Kernel", "The kernel, copy or set"}};
    for (const KernelSequences& r : ranks)
        for (size_t i = 0; i < r.sequences.size(); ++i) {
            const KernelSequence& s = r.sequences[i];
            const double calls = double(std::max<int64_t>(s.count, 1));
            for (size_t p = 0; p < s.kernels.size(); ++p) {
                const SequenceKernel& k = s.kernels[p];
                spec.rows.push_back({integerCell(int64_t(i + 1)), integerCell(r.rank),
                                     integerCell(int64_t(p + 1)), micros(double(k.total_ns)),
                                     micros(double(k.total_ns) / calls), micros(double(k.delay_ns)),
                                     micros(double(k.delay_ns) / calls), textCell(k.name)});
            }
        }
    return spec;
}

nlohmann::json kernelSequencesJson(const std::vector<KernelSequences>& ranks) {
    nlohmann::json out = nlohmann::json::array();
    for (const KernelSequences& r : ranks) {
        nlohmann::json sequences = rowsJson(kernelSequenceTable({r}), "rank");
        const nlohmann::json kernels = rowsJson(sequenceKernelTable({r}), "rank");
        for (size_t i = 0; i < sequences.size(); ++i) {
            nlohmann::json& row = sequences[i];
            row["pattern"] = r.sequences[i].pattern(); // HTA's key, "|"-joined
            row["kernels"] = nlohmann::json::array();
        }
        for (nlohmann::json k : kernels) {
            const size_t i = k["sequence"].get<size_t>() - 1;
            k.erase("sequence");
            sequences[i]["kernels"].push_back(std::move(k));
        }
        out.push_back({{"rank", r.rank}, {"calls", r.calls}, {"sequences", std::move(sequences)}});
    }
    const SequenceOptions options = ranks.empty() ? SequenceOptions{} : ranks[0].options;
    return {{"operator", options.operator_text},
            {"min_pattern_len", options.min_pattern_len},
            {"ranks", std::move(out)}};
}

} // namespace ts
