#include "scriptrun/ProbeWire.h"

namespace ts::scriptrun {
namespace {

using nlohmann::json;

struct TypeName {
    const char* name;
    ProbeLineType type;
};

constexpr TypeName kTypes[] = {
    {"hello", ProbeLineType::Hello},       {"device", ProbeLineType::Device},
    {"step", ProbeLineType::Step},         {"late", ProbeLineType::Late},
    {"memory", ProbeLineType::Memory},     {"epoch", ProbeLineType::Epoch},
    {"trace", ProbeLineType::Trace},       {"slow", ProbeLineType::Slow},
    {"snapshot", ProbeLineType::Snapshot}, {"note", ProbeLineType::Note},
    {"bye", ProbeLineType::Bye},
};

} // namespace

ProbeLine parseProbeLine(std::string_view text) {
    ProbeLine line;
    try {
        line.body = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) { // parse_error, and out_of_range for 1e999
        throw ProbeWireError(std::string("not JSON (") + e.what() + ")");
    }
    if (!line.body.is_object()) throw ProbeWireError("not a JSON object");
    const auto t = line.body.find("t");
    if (t == line.body.end() || !t->is_string())
        throw ProbeWireError("no line type: the key \"t\" is missing or not text");
    const auto& name = t->get_ref<const std::string&>();
    for (const TypeName& known : kTypes)
        if (name == known.name) line.type = known.type;
    return line;
}

void LineSplitter::feed(std::string_view bytes, const LineHandler& on_line) {
    while (!bytes.empty()) {
        const size_t end = bytes.find('\n');
        const size_t take = end == std::string_view::npos ? bytes.size() : end;
        if (pending_.size() + take > kMaxProbeLineBytes)
            throw ProbeWireError("a line longer than " + std::to_string(kMaxProbeLineBytes) +
                                 " bytes");
        if (end == std::string_view::npos) {
            pending_.append(bytes);
            return;
        }
        if (pending_.empty()) {
            on_line(bytes.substr(0, end));
        } else {
            pending_.append(bytes.substr(0, end));
            std::string line;
            line.swap(pending_);
            on_line(line);
        }
        bytes.remove_prefix(end + 1);
    }
}

} // namespace ts::scriptrun
