#pragma once
// Golden-file checks: a test renders an output (a report, a CSV, a CLI
// printout) to text and compares it with the expected file checked in under
// tests/golden/. The rendered text is always written to
// <build>/golden/<name>.actual, so a failure can be opened or diffed whole.
// TRAINSCOPE_UPDATE_GOLDEN=1 rewrites the expected files instead of comparing
// (tests/golden/README.md): review the change with `git diff tests/golden`.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "TestPaths.h"
#include <gtest/gtest.h>

namespace ts::test {

inline std::filesystem::path goldenExpectedDir() {
    return TRAINSCOPE_GOLDEN_DIR;
}
inline std::filesystem::path goldenActualDir() {
    return TRAINSCOPE_GOLDEN_OUT_DIR;
}

inline bool updatingGoldens() {
    const char* value = std::getenv("TRAINSCOPE_UPDATE_GOLDEN");
    return value && std::string(value) == "1";
}

// The whole file, bytes as they are; empty when it cannot be read.
inline std::string readTextFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void writeTextFile(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Lines without their '\n'; a final line without one is kept.
inline std::vector<std::string> goldenLines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// A unified-diff-like excerpt of the first difference: the lines both texts
// share at the start and at the end are left out, the changed block between
// them is shown with up to 3 lines of context and at most `max_lines` lines
// from each side. Enough to see what changed without a diff tool; the whole
// .actual file is on disk for more.
inline std::string goldenDiff(const std::string& expected, const std::string& actual,
                              size_t max_lines = 12) {
    const auto a = goldenLines(expected), b = goldenLines(actual);
    size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head &&
           a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    if (head == a.size() && head == b.size())
        return "(same lines; the texts differ in line endings or the final newline)\n";
    constexpr size_t kContext = 3;
    const size_t from = head > kContext ? head - kContext : 0;
    const size_t a_end = a.size() - tail, b_end = b.size() - tail;
    const size_t after = std::min(kContext, tail);
    std::ostringstream out;
    out << "@@ -" << from + 1 << ',' << a_end + after - from << " +" << from + 1 << ','
        << b_end + after - from << " @@\n";
    for (size_t i = from; i < head; ++i)
        out << ' ' << a[i] << '\n';
    auto block = [&](const std::vector<std::string>& lines, size_t end, char mark) {
        for (size_t i = head; i < end && i < head + max_lines; ++i)
            out << mark << lines[i] << '\n';
        if (end - head > max_lines) out << mark << "... (" << end - head - max_lines << " more)\n";
    };
    block(a, a_end, '-');
    block(b, b_end, '+');
    for (size_t i = a_end; i < a_end + after; ++i)
        out << ' ' << a[i] << '\n';
    return out.str();
}

// How to accept the new output: this binary, this test, the switch on.
inline std::string goldenUpdateCommand() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string command =
        "TRAINSCOPE_UPDATE_GOLDEN=1 " + (ec ? std::string("trainscope_core_tests") : self.string());
    if (test)
        command += std::string(" --gtest_filter=") + test->test_suite_name() + "." + test->name();
    return command;
}

// Compares `actual` with tests/golden/<name> (`name` may hold folders:
// "compare/report.md"); writes <build>/golden/<name>.actual either way. With
// TRAINSCOPE_UPDATE_GOLDEN=1 the expected file is rewritten and the check passes.
inline ::testing::AssertionResult matchesGolden(const std::string& name,
                                                const std::string& actual) {
    const auto expected_path = goldenExpectedDir() / name;
    const auto actual_path = goldenActualDir() / (name + ".actual");
    writeTextFile(actual_path, actual);
    if (updatingGoldens()) {
        if (readTextFile(expected_path) != actual || !std::filesystem::exists(expected_path)) {
            writeTextFile(expected_path, actual);
            std::cerr << "[golden] updated " << expected_path.string() << "\n";
        }
        return ::testing::AssertionSuccess();
    }
    if (!std::filesystem::exists(expected_path))
        return ::testing::AssertionFailure()
               << "no expected file " << expected_path.string() << " (output in "
               << actual_path.string() << ").\nTo create it: " << goldenUpdateCommand();
    const std::string expected = readTextFile(expected_path);
    if (expected == actual) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "output differs from the golden file " << name << "\n--- " << expected_path.string()
           << " (expected)\n+++ " << actual_path.string() << " (actual)\n"
           << goldenDiff(expected, actual)
           << "If the change is intended, regenerate the expected file and review it with "
              "`git diff tests/golden`:\n  "
           << goldenUpdateCommand();
}

inline void expectMatchesGolden(const std::string& name, const std::string& actual) {
    EXPECT_TRUE(matchesGolden(name, actual));
}

} // namespace ts::test
