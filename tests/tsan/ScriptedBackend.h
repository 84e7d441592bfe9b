#pragma once
// A TorchBackend without LibTorch for the GUI bridge's ThreadSanitizer test:
// its training run reports steps, epochs, a profile window and messages from
// the job's thread through the same observers as the real one (the run
// directory's recorder and the GUI's LiveBuffer), at about 2,000 steps a
// second, and stops within one step of a cancel.
#include "backend/TorchBackend.h"

namespace ts::test {

const gui::TorchBackend& scriptedBackend();

} // namespace ts::test
