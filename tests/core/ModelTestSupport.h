#pragma once
// Shared by the Model* tests: temp folders, the checked-in fixtures and the
// torchvision reference script (run by /usr/bin/python3 when it has torch).
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include "TestPaths.h"
#include <gtest/gtest.h>

namespace ts::test {

inline std::filesystem::path modelFixture(const std::string& name) {
    return std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR) / "models" / name;
}

// A fresh folder under the system temp dir, unique per process and call.
inline std::filesystem::path freshTempDir(const std::string& tag) {
    static std::atomic<int> counter{0};
    const auto dir =
        std::filesystem::temp_directory_path() /
        ("trainscope_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline bool pythonTorchAvailable() {
    static const bool available =
        std::filesystem::exists("/usr/bin/python3") &&
        std::system("/usr/bin/python3 -c 'import torch, torchvision' >/dev/null 2>&1") == 0;
    return available;
}

// Runs torchvision_reference.py MODE TARGET; false (with its output in *log) on failure.
inline bool runTorchvisionReference(const std::string& mode, const std::filesystem::path& target,
                                    std::string* log) {
    const auto log_path = target.parent_path() / (mode + "_python.log");
    const std::string cmd = "/usr/bin/python3 '" +
                            modelFixture("torchvision_reference.py").string() + "' " + mode + " '" +
                            target.string() + "' >'" + log_path.string() + "' 2>&1";
    if (std::system(cmd.c_str()) == 0) return true;
    std::ifstream in(log_path);
    *log = "command failed: " + cmd + "\n" +
           std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return false;
}

} // namespace ts::test
