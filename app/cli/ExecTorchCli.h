#pragma once
// Hands a command that needs LibTorch to trainscope-cli-torch. exec, not a
// child process: the arguments, the exit code, the terminal and Ctrl-C stay
// exactly the user's, and nothing of this process remains.

namespace ts::cli {

// Replaces this process by trainscope-cli-torch with the same arguments.
// Returns only when that fails, with the exit code after printing why.
int execTorchCli(char** argv);

} // namespace ts::cli
