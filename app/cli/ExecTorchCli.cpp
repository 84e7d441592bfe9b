#include "ExecTorchCli.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "inspect/ExitCodes.h"

namespace ts::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kTorchCli = "trainscope-cli-torch";

// Where the torch binary may be, in order: TRAINSCOPE_TORCH_CLI, next to this
// binary (the build tree), then the install layout (bin/ and
// libexec/trainscope/ under one prefix).
std::vector<fs::path> candidates() {
    std::vector<fs::path> out;
    if (const char* env = std::getenv("TRAINSCOPE_TORCH_CLI"); env && *env) {
        out.emplace_back(env);
        return out; // set on purpose: no silent fallback to another binary
    }
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (error) return out;
    out.push_back(self.parent_path() / kTorchCli);
    out.push_back(self.parent_path().parent_path() / "libexec" / "trainscope" / kTorchCli);
    return out;
}

} // namespace

int execTorchCli(char** argv) {
    const std::vector<fs::path> paths = candidates();
    std::string tried;
    // c10d logs socket failures through glog (read at the torch binary's
    // start); our errors already say what happened, with c10d's words in
    // brackets, so only fatal ones print unless the user asks for more.
    ::setenv("GLOG_minloglevel", "3", /*overwrite=*/0);
    for (const fs::path& path : paths) {
        if (::access(path.c_str(), X_OK) == 0) {
            ::execv(path.c_str(), argv);
            std::cerr << "error: cannot start " << path.string() << ": " << std::strerror(errno)
                      << "\n";
            return exit_code::kFailure;
        }
        tried += (tried.empty() ? "" : ", ") + path.string();
    }
    std::cerr << "error: this command trains or measures with LibTorch and needs " << kTorchCli
              << ", which was not found (looked at: " << (tried.empty() ? "nothing" : tried)
              << "). Reinstall Trainscope, or set TRAINSCOPE_TORCH_CLI to its path.\n";
    return exit_code::kFailure;
}

} // namespace ts::cli
