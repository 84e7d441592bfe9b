#pragma once
// Every kind of document Trainscope opens, declared once: what it is, how it
// is recognised (by content: a file's first bytes, a folder's entries; a
// name only breaks a tie), how it opens (a file, a folder, or a stream that
// whoever runs it feeds) and which views it feeds. The GUI opens whatever a
// path is through it, the CLI's commands ask it what a path is and say so
// when a command does not read that kind; a new kind of document is one
// entry here (PlotJuggler's data loaders, Perfetto's trace types).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "report/ViewCatalog.h"
#include "sources/SourceProbe.h"
#include "trace/ReadProgress.h"

namespace ts::sources {

struct Document;

enum class SourceShape { File, Folder, Stream };
const char* toString(SourceShape shape); // "file", "folder", "stream"

// How sure a source is that a path is its own. Content wins over a name.
enum class Match { No = 0, ByName = 1, ByContent = 2 };

// Traces with more events than this open with the Overview and the Timeline
// only (0: every trace): the other views are made when first shown.
inline constexpr size_t kDeferViewsAboveEvents = 500000;

struct OpenRequest {
    ReadProgress progress; // reports and cancels the read
    size_t defer_views_above = kDeferViewsAboveEvents;
};

struct SourceKind {
    const char* name;       // "trace", "run", ...: lower case, for messages and help
    const char* title;      // "Chrome trace"
    const char* recognises; // what its content looks like, one line for help
    SourceShape shape;
    std::vector<views::Input> feeds; // the inputs of the views it can feed
    const char* first_view;          // the catalog view a document of it opens on
    const char* command;             // the CLI command that reads it ("memory-stats"), "" none
    // Null for a stream, which is not found at a path.
    Match (*recognise)(const SourceProbe& probe);
    // Fills `doc` (its path is set); throws with a sentence naming the file.
    // Null for a stream: what runs it makes its documents.
    void (*open)(Document& doc, const SourceProbe& probe, const OpenRequest& request);

    bool feedsInput(views::Input input) const;
};

// In the order help texts list them.
const std::vector<SourceKind>& sourceKinds();
const SourceKind& sourceKind(std::string_view name); // every name used in code exists

struct Recognised {
    const SourceKind* kind = nullptr; // null: nothing recognises the path
    Match match = Match::No;
    SourceProbe probe;
    std::string why_not; // with no kind: what the path is, in plain words
};
// The kind that recognises `path` best (content before names, then the
// registry's order).
Recognised recognise(const std::filesystem::path& path);
// "a Chrome trace" etc. for messages: "X is an allocator snapshot, not a trace".
std::string describe(const SourceKind& kind);
// Throws std::invalid_argument for a path no kind recognises, or whose kind
// feeds none of `inputs` ("X is an allocator snapshot (...); COMMAND reads
// a trace: use memory-stats X"). `what` names what the command reads.
const SourceKind& requireKind(const Recognised& found, const std::vector<views::Input>& inputs,
                              const std::string& what);

} // namespace ts::sources
