// The source registry (sources/SourceRegistry.h) and what it opens: the
// input as one file, or cut at 0x1e into the files of a folder (a run's
// run.json, a rank folder's traces). Whatever the bytes, recognising never
// throws and says what an unrecognised path is; opening never throws and a
// document that did not open says why.
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzSupport.h"
#include "sources/OpenDocument.h"
#include "sources/SourceRegistry.h"

namespace {

// The names a folder's files get: those the registry looks for.
constexpr const char* kNames[] = {"run.json", "rank0.pt.trace.json", "rank1.pt.trace.json.gz",
                                  "sweep.csv"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static ts::fuzz::ScratchDir scratch;
    if (size == 0) return 0;
    const std::filesystem::path& dir = scratch.fresh();
    std::filesystem::path path = dir / "input";
    if (data[0] & 1) {
        scratch.write("input", std::string(reinterpret_cast<const char*>(data + 1), size - 1));
    } else {
        path = dir / "folder";
        std::filesystem::create_directory(path);
        const auto parts = ts::fuzz::splitInput(data + 1, size - 1, '\x1e', std::size(kNames));
        for (size_t i = 0; i < parts.size(); ++i)
            scratch.write(std::string("folder/") + kNames[i], parts[i]);
    }
    const ts::sources::Recognised found = ts::sources::recognise(path);
    if (!found.kind && found.why_not.find(path.string()) == std::string::npos)
        ts::fuzz::propertyBroken("an unrecognised path is not named: " + found.why_not);
    ts::sources::OpenRequest request;
    request.defer_views_above = 0; // the Overview alone: the fuzzer's time goes to reading
    const ts::sources::Document doc = ts::sources::openDocument(path, request);
    if (!doc.ok() && doc.error.empty())
        ts::fuzz::propertyBroken("a document failed without a word");
    return 0;
}
