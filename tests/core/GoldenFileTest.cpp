// The golden-file helpers themselves: the diff excerpt a failure shows, the
// masks for volatile values and the markdown without its images.
#include <gtest/gtest.h>

#include "GoldenFile.h"
#include "GoldenMask.h"

namespace {

using ts::test::applyMasks;
using ts::test::goldenDiff;

TEST(GoldenFile, DiffShowsTheFirstChangedBlockWithContext) {
    const std::string expected = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const std::string actual = "a\nb\nc\nd\nE\nf\ng\nh\n";
    EXPECT_EQ(goldenDiff(expected, actual), "@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
    EXPECT_EQ(goldenDiff("x\n", "x\ny\n"), "@@ -1,1 +1,2 @@\n x\n+y\n");
    EXPECT_NE(goldenDiff("x\n", "x").find("final newline"), std::string::npos);
    std::string many;
    for (int i = 0; i < 30; ++i)
        many += std::to_string(i) + "\n";
    EXPECT_NE(goldenDiff("", many, 12).find("+... (18 more)"), std::string::npos);
}

TEST(GoldenFile, MasksReplaceVolatileJsonValuesAndKeepTheRest) {
    const std::string json = R"({
  "median_images_per_sec": 812.25,
  "median_phases": {
    "data_ms": 1.5
  },
  "peak_rss_bytes": 123456,
  "run_dir": "/tmp/x/runs/20260101-120000-tiny",
  "hostname": "box",
  "torch_version": "2.1.2",
  "final_train_loss": null,
  "steps_completed": 3,
  "status": "completed"
})";
    EXPECT_EQ(applyMasks(json, ts::test::volatileMasks()), R"({
  "median_images_per_sec": "<rate>",
  "median_phases": {
    "data_ms": "<duration>"
  },
  "peak_rss_bytes": "<memory>",
  "run_dir": "<path>",
  "hostname": "<host>",
  "torch_version": "<version>",
  "final_train_loss": null,
  "steps_completed": 3,
  "status": "completed"
})");
    EXPECT_EQ(applyMasks("saved to runs/20260101-120000-tiny at 2026-01-01T12:00:00Z",
                         ts::test::volatileMasks()),
              "saved to runs/<time>-tiny at <time>");
}

TEST(GoldenFile, MarkdownWithoutImagesKeepsTheText) {
    const std::string md = "# T\n\n| a |\n\n![x](x.png) ![y](y.png)\n\n![z](z.png)\n\n## Next\n";
    EXPECT_EQ(ts::test::withoutMarkdownImages(md), "# T\n\n| a |\n\n## Next\n");
}

} // namespace
