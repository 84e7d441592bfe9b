#include "report/RunContinuation.h"

#include <algorithm>
#include <fstream>

#include "config/ConfigJson.h"
#include "report/JsonNumbers.h"
#include "report/RunDirectory.h"
#include "report/StepsCsv.h"
#include "util/AtomicFile.h"

namespace ts {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool sameDirectory(const fs::path& a, const fs::path& b) {
    std::error_code error;
    return fs::equivalent(a, b, error) && !error;
}

// The directory a `resume` value stands for: itself, or a checkpoint's folder.
fs::path resumedDirectory(const std::string& resume) {
    std::error_code error;
    const fs::path path(resume);
    return fs::is_directory(path, error) ? path : path.parent_path();
}

// run.json's messages and resumptions, which RunRecord does not hold.
json readRunJson(const fs::path& dir) {
    const auto path = dir / run_files::kRunJson;
    std::ifstream in(path);
    try {
        return json::parse(in);
    } catch (const json::exception& e) {
        throw RunFormatError(path.string() + ": not valid JSON (" + e.what() + ")");
    }
}

std::string howItEnded(const RunSummary& summary) {
    switch (summary.status) {
    case RunStatus::Running:
        return "ended without finishing (killed or lost)";
    case RunStatus::Cancelled:
        return "was cancelled";
    case RunStatus::Failed:
        return "failed (" + summary.error + ")";
    case RunStatus::Completed:
        break;
    }
    return "completed";
}

// Files a profile window's entry in run.json names.
std::vector<std::string> windowFiles(const json& window) {
    std::vector<std::string> names;
    const auto files = window.find("files");
    if (files == window.end() || !files->is_object()) return names;
    for (const auto& [kind, name] : files->items())
        if (name.is_string()) names.push_back(name.get<std::string>());
    return names;
}

// A profile window's last step; a value that is no integer (a string, 1e99)
// is a broken run.json, worded as one rather than as nlohmann's type_error.
int64_t lastStepOf(const json& window, const fs::path& dir) {
    try {
        return intValue(window, "last_step", int64_t(0));
    } catch (const json::exception&) {
        throw RunFormatError((dir / run_files::kRunJson).string() +
                             ": a profile window's 'last_step' is " + window.dump() +
                             ", not an integer step");
    } catch (const std::out_of_range& e) {
        throw RunFormatError((dir / run_files::kRunJson).string() + ": a profile window's " +
                             e.what());
    }
}

} // namespace

bool resumesInto(const ExperimentConfig& config, const fs::path& dir) {
    if (config.resume.empty()) return false;
    const fs::path resumed = resumedDirectory(config.resume);
    if (sameDirectory(resumed, dir)) return true;
    // One rank's records of a job resumed from the job's directory.
    return dir.parent_path().filename() == "ranks" &&
           sameDirectory(resumed, dir.parent_path().parent_path());
}

std::optional<RunContinuation> RunContinuation::open(const fs::path& dir, const RunInfo& info) {
    std::error_code error;
    if (!resumesInto(info.config, dir) || !fs::exists(dir / run_files::kRunJson, error))
        return std::nullopt;
    const RunRecord earlier = loadRun(dir);
    const json raw = readRunJson(dir);

    RunContinuation c(dir, info.config.warmup_steps_excluded);
    c.earlier_info_ = earlier.info;
    c.resumed_epoch_ = info.start_epoch;
    c.earlier_time_s_ = earlier.summary.total_time_s;
    int64_t dropped = 0;
    for (const auto& step : earlier.steps) {
        c.earlier_time_s_ = std::max(c.earlier_time_s_, step.wall_s);
        if (step.global_step < info.start_global_step) {
            c.kept_steps_.push_back(step);
            c.summary_.addStep(step);
        } else {
            ++dropped;
        }
    }
    for (const auto& epoch : earlier.epochs)
        if (epoch.epoch < info.start_epoch) {
            c.epochs_.push_back(epoch);
            c.summary_.addEpoch(epoch);
        }
    if (earlier.profile.is_array())
        for (const auto& window : earlier.profile) {
            if (lastStepOf(window, dir) < info.start_global_step) {
                c.profile_.push_back(window);
                ++c.kept_windows_;
            } else {
                for (auto& name : windowFiles(window))
                    c.dropped_files_.push_back(std::move(name));
            }
        }
    for (const auto& message : raw.value("messages", json::array()))
        if (message.is_string()) c.messages_.push_back(message.get<std::string>());
    const json resumptions = raw.value("resumed", json::array());
    if (resumptions.is_array()) c.resumptions_ = resumptions;

    std::string note =
        "continued in this directory at epoch " + std::to_string(info.start_epoch + 1) + ", step " +
        std::to_string(info.start_global_step) + ": the earlier process " +
        howItEnded(earlier.summary) + " after " + std::to_string(earlier.steps.size()) + " steps";
    if (dropped > 0)
        note += "; the " + std::to_string(dropped) +
                " steps it measured after that checkpoint are dropped and trained again";
    const int64_t expected = info.start_global_step - earlier.info.start_global_step;
    if (int64_t(c.kept_steps_.size()) < expected)
        note += "; " + std::to_string(expected - int64_t(c.kept_steps_.size())) +
                " steps before the checkpoint are missing from steps.csv";
    c.messages_.push_back(note);
    c.resumptions_.push_back({{"epoch", info.start_epoch},
                              {"global_step", info.start_global_step},
                              {"earlier_status", toString(earlier.summary.status)},
                              {"earlier_steps", earlier.steps.size()},
                              {"dropped_steps", dropped},
                              {"wall_s", c.earlier_time_s_},
                              // run.json's config becomes the resumed one's
                              {"earlier_config", configToJson(earlier.info.config)}});
    return c;
}

void RunContinuation::rewriteFiles(const fs::path& dir) const {
    std::string text = stepsCsvHeader();
    for (const auto& step : kept_steps_)
        text += stepsCsvRow(step);
    writeFileAtomically(dir / run_files::kStepsCsv, text);
    std::error_code ignored;
    for (const auto& name : dropped_files_)
        if (fs::path(name).filename() == fs::path(name)) // never outside the run
            fs::remove(dir / name, ignored);
}

RunInfo RunContinuation::info(const RunInfo& resumed) const {
    RunInfo info = resumed;
    info.start_epoch = earlier_info_.start_epoch;
    info.start_global_step = earlier_info_.start_global_step;
    return info;
}

StepRecord RunContinuation::step(StepRecord step) const {
    step.wall_s += earlier_time_s_;
    return step;
}

EpochRecord RunContinuation::epoch(EpochRecord epoch) const {
    if (epoch.epoch != resumed_epoch_) return epoch;
    // The earlier steps of this epoch, weighted as the engine weighs an
    // epoch: by images (the step's rate times its time, which is the job's
    // images in a data-parallel run), skipped updates left out.
    int64_t steps = 0;
    double seconds = 0, images = 0, loss = 0, correct_share = 0;
    for (const auto& s : kept_steps_) {
        if (s.epoch != resumed_epoch_) continue;
        ++steps;
        seconds += s.step_ms / 1000.0;
        if (s.skipped || s.batch_size <= 0) continue;
        const double step_images = s.images_per_sec * s.step_ms / 1000.0;
        images += step_images;
        loss += s.loss * step_images;
        correct_share += double(s.correct) / double(s.batch_size) * step_images;
    }
    if (steps == 0) return epoch;
    const double later_images = epoch.images_per_sec * epoch.epoch_time_s;
    const double all_images = images + later_images;
    epoch.steps += steps;
    epoch.epoch_time_s += seconds;
    epoch.images_per_sec = epoch.epoch_time_s > 0 ? all_images / epoch.epoch_time_s : 0;
    if (all_images > 0) {
        epoch.train_loss = (loss + epoch.train_loss * later_images) / all_images;
        epoch.train_accuracy = (correct_share + epoch.train_accuracy * later_images) / all_images;
    }
    return epoch;
}

RunSummary RunContinuation::summary(const RunSummary& resumed) const {
    RunSummary s =
        summary_.build(resumed.status, resumed.error, earlier_time_s_ + resumed.total_time_s);
    s.peak_rss_bytes = std::max(s.peak_rss_bytes, resumed.peak_rss_bytes);
    s.peak_device_bytes = std::max(s.peak_device_bytes, resumed.peak_device_bytes);
    s.distributed = resumed.distributed;
    continueRankFigures(s);
    return s;
}

// The ranks' figures the job gathered cover the resumed processes only. Each
// rank's folder holds its whole history by now (every rank wrote its last
// step before the gather that ends the job), so its figures are taken again
// over all of it, and the job's rate is their sum, as for a job that was
// never interrupted. A folder that cannot be read keeps the gathered figures.
void RunContinuation::continueRankFigures(RunSummary& s) const {
    DistributedSummary& d = s.distributed;
    if (d.world_size <= 1 || d.ranks.empty()) return;
    std::error_code error;
    const fs::path ranks = fs::is_directory(dir_ / "ranks", error)    ? dir_ / "ranks"
                           : dir_.parent_path().filename() == "ranks" ? dir_.parent_path()
                                                                      : fs::path();
    if (ranks.empty()) return;
    size_t continued = 0;
    for (RankSummary& rank : d.ranks) {
        std::vector<StepRecord> steps;
        try {
            steps = readStepsCsv(ranks / std::to_string(rank.rank) / run_files::kStepsCsv);
        } catch (const std::exception&) {
            continue; // gone or unreadable: the gathered figures stand
        }
        if (steps.empty()) continue;
        SummaryBuilder whole(summary_.warmupStepsExcluded());
        for (const StepRecord& step : steps)
            whole.addStep(step);
        // The figures measured anew, the rank's identity as gathered.
        RankSummary figures = whole.rankFigures();
        figures.rank = rank.rank;
        figures.host = std::move(rank.host);
        figures.param_checksum = std::move(rank.param_checksum);
        rank = std::move(figures);
        ++continued;
    }
    if (continued == d.ranks.size())
        if (const auto rate = jobImagesPerSec(d)) s.median_images_per_sec = *rate;
}

} // namespace ts
