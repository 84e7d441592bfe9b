#include "models/UncallableOp.h"

#include <cctype>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "models/OpVersions.h"

namespace ts {
namespace {

// (major, minor) of "2.10", "1.13.1", "2.15.0+cu132"; (0, 0) if unreadable.
std::pair<int, int> majorMinor(std::string_view version) {
    int parts[2] = {0, 0};
    size_t i = 0;
    for (int& part : parts) {
        if (i >= version.size() || !std::isdigit(static_cast<unsigned char>(version[i]))) break;
        while (i < version.size() && std::isdigit(static_cast<unsigned char>(version[i])))
            part = part * 10 + (version[i++] - '0');
        if (i < version.size() && version[i] == '.') ++i;
    }
    return {parts[0], parts[1]};
}

bool newer(std::string_view release, std::string_view than) {
    return majorMinor(release) > majorMinor(than);
}

std::string namespaceOf(const std::string& op) {
    return op.substr(0, op.find("::"));
}

// An op's name at the start of `s`: "aten::to_sparse" of "aten::to_sparse.x(".
std::string opNameAt(std::string_view s) {
    static const std::regex name(R"(^[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*)");
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(s.begin(), s.end(), m, name)) return "";
    return m.str();
}

std::string trimmed(std::string_view s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return "";
    return std::string(s.substr(b, s.find_last_not_of(" \t\r") - b + 1));
}

std::vector<std::string> linesOf(std::string_view text) {
    std::vector<std::string> lines;
    size_t begin = 0;
    while (begin <= text.size()) {
        const size_t end = std::min(text.find('\n', begin), text.size());
        lines.push_back(trimmed(text.substr(begin, end - begin)));
        begin = end + 1;
    }
    return lines;
}

// "Build Trainscope on LibTorch 2.0 or later (scripts/torch2.sh), or ..."
std::string buildAdvice(const std::string& release, std::string_view libtorch,
                        const std::string& without) {
    return "Build Trainscope on LibTorch " + release +
           " or later (scripts/torch2.sh), or script and save the model with PyTorch " +
           std::string(libtorch) + " (without " + without + ")";
}

std::string missingOp(const UncallableOp& call, std::string_view libtorch) {
    const std::string lib(libtorch);
    const std::string ns = namespaceOf(call.op);
    if (ns == "prim")
        return "it uses " + call.op + ", which is not an op of this LibTorch (" + lib +
               "): a corrupt file, or a TorchScript primitive of a newer PyTorch?";
    if (ns != "aten")
        return "it uses " + call.op + ", which is not an op of this LibTorch (" + lib +
               "): it comes from a library that registers " + ns +
               ":: ops (an extension such as torchvision, or a custom op), and Trainscope loads "
               "none.";
    const auto release = firstReleaseWith(call.op);
    if (!release)
        return "it uses " + call.op + ", which LibTorch " + lib +
               " does not have and no PyTorch release up to " + newestReleaseRead() +
               " declares: a corrupt file, or an op of a patched PyTorch?";
    if (!newer(*release, libtorch))
        return "it uses " + call.op + ", which this LibTorch (" + lib + ") lacks though PyTorch " +
               *release +
               " added it: a later release removed it. Script and save the model with "
               "PyTorch " +
               lib + ", or build Trainscope on the LibTorch of the PyTorch that saved it.";
    return "it uses " + call.op + ", which PyTorch " + *release +
           " added; this Trainscope is built on LibTorch " + lib + ". " +
           buildAdvice(*release, libtorch, "that op") + ".";
}

std::string mismatchedCall(const UncallableOp& call, std::string_view libtorch) {
    const std::string lib(libtorch);
    const std::string head = "it calls " + call.op + " with arguments LibTorch " + lib + "'s " +
                             call.op + " does not take (" + call.mismatch + ")";
    // The arguments later releases added that this LibTorch lacks: the one the
    // mismatch names, or else all of them.
    std::vector<std::string> added;
    std::string needed;
    if (!call.argument.empty()) {
        const auto r = firstReleaseWith(call.op + "(" + call.argument + ")");
        if (r && newer(*r, libtorch)) {
            added.push_back(call.argument + " (" + *r + ")");
            needed = *r;
        }
    }
    if (call.argument.empty())
        for (const std::string& a : argumentsAddedTo(call.op)) {
            const std::string r = a.substr(a.rfind('(') + 1, a.size() - a.rfind('(') - 2);
            if (!newer(r, libtorch)) continue;
            added.push_back(a);
            if (needed.empty() || newer(r, needed)) needed = r;
        }
    if (added.empty())
        return head +
               ": a model saved by a newer PyTorch? Build Trainscope on the LibTorch of the "
               "PyTorch that saved it (scripts/torch2.sh), or "
               "script and save the model with PyTorch " +
               lib + ".";
    if (added.size() == 1)
        return head + "; PyTorch " + needed + " added its argument " +
               added[0].substr(0, added[0].find(' ')) + ". " +
               buildAdvice(needed, libtorch, "that argument") + ".";
    std::string list;
    for (const std::string& a : added)
        list += (list.empty() ? "" : ", ") + a;
    return head + "; arguments later releases added to it: " + list + ". " +
           buildAdvice(needed, libtorch, "those arguments") + ".";
}

} // namespace

std::optional<UncallableOp> uncallableOpIn(std::string_view text) {
    constexpr std::string_view kUnknown = "Unknown builtin op: ";
    if (const size_t at = text.find(kUnknown); at != std::string_view::npos) {
        UncallableOp call;
        call.op = opNameAt(text.substr(at + kUnknown.size()));
        if (!call.op.empty()) return call;
    }
    // A schema line, "aten::to_sparse.sparse_dim(Tensor self, int sparse_dim) ->
    // Tensor:", then why that variant does not take the call.
    static const std::regex schema(R"(^[A-Za-z_][A-Za-z0-9_]*::[A-Za-z0-9_.]+\(.*\)\s*->.*:$)");
    static const std::regex keyword(R"(Keyword argument (\w+) unknown)");
    static const std::regex typed(R"(for argument '(\w+)')");
    const std::vector<std::string> lines = linesOf(text);
    std::optional<UncallableOp> found;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        if (!std::regex_match(lines[i], schema)) continue;
        const std::string& why = lines[i + 1];
        if (!found) {
            found = UncallableOp{opNameAt(lines[i]), false, why, ""};
            if (found->op.empty()) return std::nullopt;
        }
        // The variant that names an argument (a keyword it lacks, a type it
        // takes otherwise) says most; "Argument out not provided." least.
        std::smatch m;
        if (found->argument.empty() &&
            (std::regex_search(why, m, keyword) || std::regex_search(why, m, typed))) {
            found->mismatch = why;
            found->argument = m[1];
        }
    }
    return found;
}

std::string explainUncallableOp(const UncallableOp& call, std::string_view libtorch) {
    return call.missing ? missingOp(call, libtorch) : mismatchedCall(call, libtorch);
}

} // namespace ts
