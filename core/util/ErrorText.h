#pragma once
// LibTorch's exceptions (c10::Error) append where they were raised and a stack
// of C++ frames to their message: users get the sentence, never the frames.
#include <string>

namespace ts {

// `what` up to LibTorch's "Exception raised from ..." trailer, without the
// trailing blank space; messages without one come back unchanged.
inline std::string withoutTorchFrames(const std::string& what) {
    std::string text = what.substr(0, what.find("Exception raised from"));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

} // namespace ts
