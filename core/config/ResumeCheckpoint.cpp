#include "config/ResumeCheckpoint.h"

#include <cstdlib>

#include "config/ConfigError.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

// Order among checkpoints written in the same tick: best.pt 0 (its epoch has
// an epoch_<N>.pt too when those are kept), epoch_<N>.pt N, final.pt above
// every epoch; -1 for other files.
long checkpointRank(const std::string& name) {
    if (name == "final.pt") return 1L << 40;
    if (name == "best.pt") return 0;
    const std::string prefix = "epoch_", suffix = ".pt";
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return -1;
    const std::string digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    char* end = nullptr;
    const long n = std::strtol(digits.c_str(), &end, 10);
    return (*end == '\0' && n >= 1 && n < (1L << 40)) ? n : -1;
}

} // namespace

std::optional<fs::path> latestCheckpointIn(const fs::path& dir) {
    std::optional<fs::path> best;
    fs::file_time_type best_time{};
    long best_rank = -1;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(dir, error)) {
        const long rank = checkpointRank(entry.path().filename().string());
        if (rank < 0 || !entry.is_regular_file(error)) continue;
        const auto time = entry.last_write_time(error);
        if (error) continue;
        // The newest write wins; within one tick of the clock, the later epoch.
        if (!best || time > best_time || (time == best_time && rank > best_rank)) {
            best = entry.path();
            best_time = time;
            best_rank = rank;
        }
    }
    return best;
}

fs::path resumeCheckpoint(const std::string& resume) {
    std::error_code error;
    if (fs::is_regular_file(resume, error)) return resume;
    if (!fs::is_directory(resume, error))
        throw ConfigError("resume", {{"resume", "\"" + resume + "\"",
                                      "no such checkpoint file or run directory"}});
    if (auto latest = latestCheckpointIn(resume)) return *latest;
    throw ConfigError(
        "resume",
        {{"resume", "\"" + resume + "\"",
          "the directory holds no checkpoint (final.pt, epoch_<N>.pt or best.pt); a run "
          "writes best.pt when validation improves, epoch_<N>.pt with checkpoint_every=1 and "
          "final.pt at its end"}});
}

} // namespace ts
