#include "report/StepsCsv.h"

#include <fstream>
#include <sstream>

#include "report/RunDirectory.h"

namespace ts {
namespace {

// Column order is the file format: append new columns at the end only.
const char* const kColumns[] = {
    "epoch", "step", "global_step", "batch_size", "data_ms", "copy_ms", "forward_ms",
    "backward_ms", "optimizer_ms", "other_ms", "step_ms", "images_per_sec", "loss", "lr",
    "correct", "skipped", "loss_scale", "tensor_bytes", "tensor_peak_bytes", "rss_bytes",
    "device_bytes", "device_peak_bytes", "wall_s", "profiled"};
constexpr size_t kColumnCount = sizeof(kColumns) / sizeof(kColumns[0]);

} // namespace

std::string stepsCsvHeader() {
    std::string out;
    for (size_t i = 0; i < kColumnCount; ++i) out += (i ? "," : "") + std::string(kColumns[i]);
    return out + "\n";
}

std::string stepsCsvRow(const StepRecord& s) {
    std::ostringstream o;
    o.precision(9);
    o << s.epoch << ',' << s.step << ',' << s.global_step << ',' << s.batch_size << ','
      << s.phases.data_ms << ',' << s.phases.copy_ms << ',' << s.phases.forward_ms << ','
      << s.phases.backward_ms << ',' << s.phases.optimizer_ms << ',' << s.phases.other_ms << ','
      << s.step_ms << ',' << s.images_per_sec << ',' << s.loss << ',' << s.lr << ',' << s.correct
      << ',' << (s.skipped ? 1 : 0) << ',' << s.loss_scale << ',' << s.tensor_bytes << ','
      << s.tensor_peak_bytes << ',' << s.rss_bytes << ',' << s.device_bytes << ','
      << s.device_peak_bytes << ',' << s.wall_s << ',' << (s.profiled ? 1 : 0) << '\n';
    return o.str();
}

std::vector<StepRecord> readStepsCsv(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw RunFormatError(path.string() + ": cannot open steps file");
    std::string line;
    std::getline(in, line);
    if (line + "\n" != stepsCsvHeader())
        throw RunFormatError(path.string() + ": unexpected header (not a Trainscope steps.csv)");
    std::vector<StepRecord> steps;
    int line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        std::vector<double> v;
        std::stringstream cells(line);
        std::string cell;
        try {
            while (std::getline(cells, cell, ',')) v.push_back(std::stod(cell));
        } catch (const std::exception&) {
            throw RunFormatError(path.string() + ":" + std::to_string(line_no) +
                                 ": not a number: \"" + cell + "\"");
        }
        if (v.size() != kColumnCount) {
            // A run killed mid-write leaves a partial last line: stop there.
            if (in.peek() == EOF) break;
            throw RunFormatError(path.string() + ":" + std::to_string(line_no) + ": expected " +
                                 std::to_string(kColumnCount) + " columns, found " +
                                 std::to_string(v.size()));
        }
        StepRecord s;
        size_t i = 0;
        s.epoch = int(v[i++]); s.step = int64_t(v[i++]); s.global_step = int64_t(v[i++]);
        s.batch_size = int(v[i++]);
        s.phases.data_ms = v[i++]; s.phases.copy_ms = v[i++]; s.phases.forward_ms = v[i++];
        s.phases.backward_ms = v[i++]; s.phases.optimizer_ms = v[i++]; s.phases.other_ms = v[i++];
        s.step_ms = v[i++]; s.images_per_sec = v[i++]; s.loss = v[i++]; s.lr = v[i++];
        s.correct = int64_t(v[i++]); s.skipped = v[i++] != 0; s.loss_scale = v[i++];
        s.tensor_bytes = int64_t(v[i++]); s.tensor_peak_bytes = int64_t(v[i++]);
        s.rss_bytes = int64_t(v[i++]); s.device_bytes = int64_t(v[i++]);
        s.device_peak_bytes = int64_t(v[i++]); s.wall_s = v[i++]; s.profiled = v[i++] != 0;
        steps.push_back(s);
    }
    return steps;
}

} // namespace ts
