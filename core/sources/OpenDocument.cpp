#include "sources/OpenDocument.h"

#include "report/RunDirectory.h"
#include "sources/TraceDocument.h"

namespace ts::sources {

std::string documentPath(const std::filesystem::path& path) {
    std::error_code ignored;
    std::filesystem::path shown = path;
    if (path.filename() == run_files::kRunJson && std::filesystem::is_regular_file(path, ignored))
        shown = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    const std::filesystem::path absolute = std::filesystem::absolute(shown, ignored);
    std::string text = (absolute.empty() ? shown : absolute).lexically_normal().string();
    if (text.size() > 1 && text.back() == '/') text.pop_back();
    return text;
}

Document openDocument(const std::filesystem::path& path, const OpenRequest& request) {
    Document doc;
    doc.path = documentPath(path);
    const Recognised found = recognise(path);
    if (!found.kind) {
        doc.error = found.why_not;
        return doc;
    }
    doc.source = found.kind;
    try {
        found.kind->open(doc, found.probe, request);
    } catch (const Cancelled&) {
        markCancelled(doc);
    } catch (const std::exception& error) {
        doc.error = error.what();
    }
    return doc;
}

} // namespace ts::sources
