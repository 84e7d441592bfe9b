#pragma once
// The GUI's LibTorch modules on this machine, found without loading any:
// libtrainscope_torch_backend-<major.minor>.so, each beside a .json that its
// build wrote (cmake/TorchBackendModule.cmake) saying which LibTorch, which
// CUDA and whether Kineto. Two LibTorch in one process share library names
// (libc10.so), so the GUI loads one module only, and must list and order
// them from these files. No Qt.
#include <filesystem>
#include <string>
#include <vector>

namespace ts::gui {

struct BackendModule {
    std::filesystem::path path;
    std::string torch_version; // "2.15.0": the .json's, else the file name's "2.15"
    std::string cuda_version;  // "13.0", "" for a CPU-only LibTorch
    bool kineto = false;
    bool described = false; // the .json was there and read

    // "LibTorch 2.15.0 (CUDA 13.0, Kineto)", "LibTorch 1.13.1 (CPU only, no Kineto)".
    std::string label() const;
};

// Where modules are looked for, in order: the folders of
// $TRAINSCOPE_TORCH_BACKEND_PATH (colon-separated; scripts/run.sh names
// build/torch2/app there), beside the program (the build tree), and
// ../lib/trainscope (installed). `program_dir` empty: this program's.
std::vector<std::filesystem::path> backendModuleFolders(std::filesystem::path program_dir = {});

// The module at `path`, described by its .json (or its name alone).
BackendModule describeBackendModule(const std::filesystem::path& path);

// Every module in `folders`, newest LibTorch first; one path once.
std::vector<BackendModule> findBackendModules(const std::vector<std::filesystem::path>& folders);

// Whether version a ("2.15.0") is newer than b ("1.13.1"), part by part.
bool newerTorch(const std::string& a, const std::string& b);

} // namespace ts::gui
