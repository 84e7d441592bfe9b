#include "report/RunTraceFile.h"

#include <stdexcept>

#include "report/RunDirectory.h"

namespace ts {

namespace fs = std::filesystem;

fs::path runTraceFile(const fs::path& path) {
    std::error_code error;
    if (!fs::exists(path, error))
        throw std::invalid_argument(path.string() + ": no such file or directory.");
    fs::path file = path;
    if (fs::is_directory(path, error))
        file = path / run_files::kTraceJson;
    else if (path.filename() == run_files::kRunJson)
        file = path.parent_path() / run_files::kTraceJson;
    if (file == path || fs::exists(file, error)) return file;
    const bool run = fs::exists(file.parent_path() / run_files::kRunJson, error);
    throw std::invalid_argument(
        path.string() +
        (run ? ": a run directory without trace.json: the run was not profiled (run it with "
               "--set profile.enabled=true)."
             : ": no trace.json there (a profiled Trainscope run directory, or a trace file, "
               "is expected; a folder of per-rank traces is read by --view distributed)."));
}

} // namespace ts
