#pragma once
// Where the GUI gets its TorchBackend. The program loads one LibTorch module
// (backend/BackendModules.h: Debian's 1.13, the wheel's 2.x, whichever are
// built) once, on a thread of its own after start-up; tests that link the
// implementation register it instead. No Qt.
#include <filesystem>
#include <string>
#include <vector>

#include "backend/BackendModules.h"
#include "backend/TorchBackend.h"

namespace ts::gui {

// The module loaded, and why that one.
struct TorchBackendLoad {
    const TorchBackend* backend = nullptr;
    BackendModule module; // empty path: linked into the program
    // "the newest LibTorch found", "chosen in Settings ▸ LibTorch", "set by
    // TRAINSCOPE_TORCH_BACKEND", "linked into this program".
    std::string why;
    // The modules tried before it and why each did not load.
    std::vector<std::string> skipped;
};

// Uses `backend` (tests, programs that link LibTorch) instead of a module.
void registerTorchBackend(const TorchBackend* backend);

// The module to try first (Settings ▸ LibTorch); empty: the newest that
// loads. Only before loading starts: a process keeps the LibTorch it loaded.
void setTorchBackendChoice(const std::filesystem::path& module);

// Starts loading the module on a thread of its own, if nobody has yet.
void startLoadingTorchBackend();
// Whether torchBackend() returns at once.
bool torchBackendReady();
// The backend, loading it first if needed (blocks until it is loaded).
// Throws std::runtime_error saying what is missing when no module can be
// loaded, or why the one loaded cannot be used (the GUI then shows trace
// views only). A module that does not load, or whose .json says it was built
// from other sources, is passed over for the next; one that loaded is never
// followed by another (its LibTorch stays in the process).
const TorchBackend& torchBackend();
// The same load, with which module and why.
TorchBackendLoad torchBackendLoad();

// Where modules are looked for, in order (for messages and tests).
std::string torchBackendSearchText();

} // namespace ts::gui
