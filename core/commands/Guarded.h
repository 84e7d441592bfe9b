#pragma once
// Runs a command body and turns exceptions into the CLI's exit codes: bad
// input (config, data, model, run-directory, Nsight CSV errors, ranks that
// cannot meet, paths that cannot be made or read, and invalid arguments)
// prints its message and gives kBadInput; anything else
// unexpected prints its message and gives kFailure. Never lets one escape, and
// never prints LibTorch's stack frames.
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "analysis/NcuCsv.h"
#include "commands/Commands.h"
#include "config/ConfigError.h"
#include "datasets/Dataset.h"
#include "distributed/Communicator.h"
#include "models/Model.h"
#include "report/RunDirectory.h"
#include "util/ErrorText.h"

namespace ts {

template <typename Body> int runGuarded(std::ostream& err, Body&& body) {
    try {
        return body();
    } catch (const ConfigError& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const DataError& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const ModelError& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const RunFormatError& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const DistributedError& e) {
        // Ranks that cannot meet (busy port, no master, a rank that never
        // came) are the launch's input; ranks lost mid-run end as a failed run.
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const NcuFormatError& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const std::invalid_argument& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
    } catch (const std::filesystem::filesystem_error& e) {
        err << "error: " << filesystemErrorText(e.what(), e.path1().string(), e.code().message())
            << "\n";
        // A path given that cannot be made or read (through a file, not
        // allowed, missing) is the user's input; anything else a failure.
        const std::error_code c = e.code();
        if (c != std::errc::not_a_directory && c != std::errc::permission_denied &&
            c != std::errc::no_such_file_or_directory && c != std::errc::read_only_file_system &&
            c != std::errc::file_exists && c != std::errc::is_a_directory)
            return exit_code::kFailure;
    } catch (const std::exception& e) {
        err << "error: " << withoutTorchFrames(e.what()) << "\n";
        return exit_code::kFailure;
    }
    return exit_code::kBadInput;
}

} // namespace ts
