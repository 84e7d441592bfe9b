#pragma once
// `trainscope-cli presets`: the shipped experiment presets, one per line. It
// reads the config layer only, so the front end answers it without LibTorch.
#include <ostream>

namespace ts {

int presetsCommand(std::ostream& out, std::ostream& err);

} // namespace ts
