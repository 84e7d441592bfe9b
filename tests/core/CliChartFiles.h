#pragma once
// What the end-to-end tests check of a chart the CLI was asked to write: the
// Qt build draws it (a PNG at twice the nominal size and a PDF), the headless
// build says in its output and in the markdown that charts need Qt.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "report/ChartRenderer.h"

namespace ts::test {

// Width and height from a PNG's IHDR chunk; {0, 0} when it is no PNG.
inline std::pair<uint32_t, uint32_t> pngSize(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char header[24] = {};
    if (!in.read(reinterpret_cast<char*>(header), sizeof(header))) return {0, 0};
    if (header[1] != 'P' || header[2] != 'N' || header[3] != 'G') return {0, 0};
    auto be32 = [&](int at) {
        return uint32_t(header[at]) << 24 | uint32_t(header[at + 1]) << 16 |
               uint32_t(header[at + 2]) << 8 | uint32_t(header[at + 3]);
    };
    return {be32(16), be32(20)};
}

inline void expectChartOrNote(const std::string& cli_output, const std::filesystem::path& dir,
                              const std::string& png, const std::string& markdown_file) {
    std::ifstream in(dir / markdown_file);
    std::ostringstream md;
    md << in.rdbuf();
    if (cli_output.find(kChartsNeedQt) != std::string::npos) {
        EXPECT_FALSE(std::filesystem::exists(dir / png)) << png;
        EXPECT_NE(md.str().find(kChartsNeedQt), std::string::npos) << md.str();
        return;
    }
    const auto size = pngSize(dir / png);
    EXPECT_EQ(size.first, uint32_t(kChartWidth * kChartPixelRatio)) << png;
    EXPECT_EQ(size.second, uint32_t(kChartHeight * kChartPixelRatio)) << png;
    auto pdf = dir / png;
    pdf.replace_extension(".pdf");
    EXPECT_TRUE(std::filesystem::exists(pdf)) << pdf;
    EXPECT_NE(md.str().find("](" + png + ")"), std::string::npos) << md.str();
}

} // namespace ts::test
