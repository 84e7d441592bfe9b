// LibTorch's messages as users see them: the sentence, never the frames, and
// never a sentence cut in the middle (LibTorch 2.x's longer messages).
#include <gtest/gtest.h>

#include "util/ErrorText.h"

using ts::briefTorchMessage;
using ts::withoutTorchFrames;

TEST(ErrorText, FramesAreDropped) {
    const std::string what = "PytorchStreamReader failed reading zip archive: failed finding "
                             "central directory\nException raised from valid at "
                             "inline_container.cc:177 (most recent call first):\nframe #0: "
                             "c10::Error::Error(...)";
    EXPECT_EQ(withoutTorchFrames(what),
              "PytorchStreamReader failed reading zip archive: failed finding central directory");
    EXPECT_EQ(briefTorchMessage(what), withoutTorchFrames(what));
}

TEST(ErrorText, ABriefMessageEndsWithItsFirstSentence) {
    // LibTorch 2.11's message for a file that is not a zip archive.
    const std::string what =
        "PytorchStreamReader failed reading zip archive: failed finding central directory. This "
        "is an internal miniz error. If you are seeing this error, there is a high likelihood "
        "that your checkpoint file is corrupted.";
    EXPECT_EQ(briefTorchMessage(what),
              "PytorchStreamReader failed reading zip archive: failed finding central directory");
}

TEST(ErrorText, AnEnforceFailureKeepsItsWords) {
    const std::string what =
        "[enforce fail at alloc_cpu.cpp:124] data. DefaultCPUAllocator: not enough memory: you "
        "tried to allocate 4096 bytes.";
    EXPECT_EQ(briefTorchMessage(what),
              "DefaultCPUAllocator: not enough memory: you tried to allocate 4096 bytes.");
    // A ". " inside a sentence (a path, "e.g. x") is no sentence's end.
    EXPECT_EQ(briefTorchMessage("cannot open runs/a. b/x.pt: e.g. missing"),
              "cannot open runs/a. b/x.pt: e.g. missing");
}

TEST(ErrorText, ALongSentenceIsCutAtAWord) {
    std::string what;
    for (int i = 0; i < 40; ++i)
        what += "word" + std::to_string(i) + " ";
    const std::string brief = briefTorchMessage(what, 50);
    EXPECT_LE(brief.size(), 53U);
    ASSERT_GE(brief.size(), 3U);
    EXPECT_EQ(brief.substr(brief.size() - 3), "...");
    // The last word before "..." is whole: it appears in the input followed by a space.
    const std::string kept = brief.substr(0, brief.size() - 3);
    EXPECT_EQ(what.compare(0, kept.size() + 1, kept + " "), 0) << brief;
}

TEST(ErrorText, ShortMessagesComeBackUnchanged) {
    EXPECT_EQ(briefTorchMessage("expected a tensor"), "expected a tensor");
    EXPECT_EQ(briefTorchMessage(""), "");
    EXPECT_EQ(briefTorchMessage("nospacesatall_nospacesatall", 10), "nospacesat...");
}
