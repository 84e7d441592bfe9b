#pragma once
// The process exit codes of every trainscope-cli command: 0 success, 1
// failure (the run failed), 2 bad input (the message names the file, key or
// value). In the lowest command layer so that the torch-free front end and the
// training commands agree on them.

namespace ts::exit_code {
inline constexpr int kOk = 0;
inline constexpr int kFailure = 1;
inline constexpr int kBadInput = 2;
} // namespace ts::exit_code
