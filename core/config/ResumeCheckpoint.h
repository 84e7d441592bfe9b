#pragma once
// What `resume` names: a checkpoint file, or a run directory, the natural
// thing to pass after a run was interrupted. No torch.
#include <filesystem>
#include <optional>
#include <string>

namespace ts {

// For a directory: its newest complete checkpoint (final.pt, epoch_<N>.pt or
// best.pt), by the time it was written: the furthest position the run saved.
// An interrupted write leaves only a *.tmp-* file, never a partial .pt.
// nullopt when the directory holds none.
std::optional<std::filesystem::path> latestCheckpointIn(const std::filesystem::path& dir);

// The checkpoint file `resume` stands for: itself when it is a file, else
// latestCheckpointIn(it). Throws ConfigError naming `resume` when it is
// neither a file nor a directory holding a checkpoint.
std::filesystem::path resumeCheckpoint(const std::string& resume);

} // namespace ts
