#pragma once
// Where the GUI gets its TorchBackend. The program loads the module
// (libtrainscope_torch_backend.so: beside the program in the build tree, in
// lib/trainscope/ when installed, or $TRAINSCOPE_TORCH_BACKEND) once, on a
// thread of its own after start-up; tests link the implementation and
// register it. No Qt.
#include <string>

#include "backend/TorchBackend.h"

namespace ts::gui {

// Uses `backend` (tests, programs that link LibTorch) instead of the module.
void registerTorchBackend(const TorchBackend* backend);

// Starts loading the module on a thread of its own, if nobody has yet.
void startLoadingTorchBackend();
// Whether torchBackend() returns at once.
bool torchBackendReady();
// The backend, loading it first if needed (blocks until it is loaded).
// Throws std::runtime_error saying what is missing when the module cannot be
// loaded (the GUI then shows trace views only).
const TorchBackend& torchBackend();

// Where the module is looked for, in order (for messages and tests).
std::string torchBackendSearchText();

} // namespace ts::gui
