// A run directory as Trainscope reads it back (report/RunDirectory.h):
// run.json, steps.csv and ops.csv, cut from the input at NUL bytes (a part
// left out is a file that is not there). loadRun and the operator table of
// the run (ops.csv, else the profile in run.json) must accept the files or
// throw RunFormatError naming one.
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "report/CompareInputs.h"
#include "report/RunDirectory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static ts::fuzz::ScratchDir scratch;
    static const char* const kFiles[] = {ts::run_files::kRunJson, ts::run_files::kStepsCsv,
                                         ts::run_files::kOpsCsv};
    const std::vector<std::string> parts = ts::fuzz::splitInput(data, size, '\0', 3);
    const std::filesystem::path& dir = scratch.fresh();
    for (size_t i = 0; i < parts.size(); ++i)
        scratch.write(kFiles[i], parts[i]);
    try {
        const ts::RunRecord run = ts::loadRun(dir);
        (void)ts::loadRunOps(run);
        (void)ts::profiledSteps(run);
    } catch (const ts::RunFormatError&) {
    }
    (void)ts::findRuns(dir);
    return 0;
}
