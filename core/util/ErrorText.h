#pragma once
// LibTorch's exceptions (c10::Error) append where they were raised and a stack
// of C++ frames to their message: users get the sentence, never the frames.
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace ts {

// The last `count` lines of a program's output that are not empty, one per
// line: what a message quotes of a process that failed.
inline std::string lastLines(const std::string& text, size_t count) {
    std::vector<std::string> lines;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        if (end > begin) lines.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    std::string last;
    for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        last += (last.empty() ? "" : "\n") + lines[i];
    return last;
}

// `what` up to LibTorch's "Exception raised from ..." trailer, without the
// trailing blank space; messages without one come back unchanged.
inline std::string withoutTorchFrames(const std::string& what) {
    std::string text = what.substr(0, what.find("Exception raised from"));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

// A LibTorch message brief enough for one line: without its frames, up to the
// end of its first sentence (". " before a capital letter), and if that is
// still longer than `limit`, cut at a space with "..." (never mid-word).
// LibTorch 2.x appends advice to some messages ("This is an internal miniz
// error. If you are seeing this error, ...") that a cut by characters left
// half-said. An enforce failure ("[enforce fail at alloc_cpu.cpp:124] data.
// DefaultCPUAllocator: not enough memory: ...") keeps the words after its
// location and condition.
inline std::string briefTorchMessage(const std::string& what, size_t limit = 160) {
    std::string text = withoutTorchFrames(what);
    const size_t line = text.find('\n');
    if (line != std::string::npos) text.erase(line);
    if (text.rfind("[enforce fail at ", 0) == 0) {
        const size_t condition = text.find("] ");
        const size_t words =
            condition == std::string::npos ? condition : text.find(". ", condition);
        if (words != std::string::npos) text.erase(0, words + 2);
    }
    for (size_t at = text.find(". "); at != std::string::npos; at = text.find(". ", at + 2)) {
        if (at + 2 < text.size() && std::isupper(static_cast<unsigned char>(text[at + 2]))) {
            text.erase(at);
            break;
        }
    }
    if (text.size() > limit) {
        const size_t space = text.rfind(' ', limit);
        text.erase(space != std::string::npos && space > 0 ? space : limit);
        text += "...";
    }
    return text;
}

// A write that failed, in plain words: "PATH: cannot write (No space left on
// device)". `error_number`: the errno the failed call left (0: not known).
inline std::string writeError(const std::string& path, int error_number) {
    return path + ": cannot write (" +
           (error_number != 0 ? std::string(std::strerror(error_number)) : "the write failed") +
           ")";
}

// std::filesystem's "filesystem error: cannot create directories: Not a
// directory [runs/x]" in plain words: "runs/x: cannot create directories
// (Not a directory)".
inline std::string filesystemErrorText(const std::string& what, const std::string& path,
                                       const std::string& reason) {
    std::string operation = what;
    const std::string prefix = "filesystem error: ";
    if (operation.rfind(prefix, 0) == 0) operation.erase(0, prefix.size());
    const size_t end = operation.find(": " + reason);
    if (end != std::string::npos) operation.erase(end);
    const size_t bracket = operation.find(" [");
    if (bracket != std::string::npos) operation.erase(bracket);
    return (path.empty() ? std::string() : path + ": ") + operation + " (" + reason + ")";
}

} // namespace ts
