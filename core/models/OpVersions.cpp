#include "models/OpVersions.h"

#include <algorithm>
#include <iterator>

namespace ts {
namespace {

struct OpRelease {
    std::string_view op;      // "scaled_dot_product_attention", "to_sparse(layout)"
    std::string_view release; // "2.0"
};

#include "models/OpVersions.inc"

// The name without "aten::"; "" for an op of another namespace.
std::string_view atenName(std::string_view op) {
    constexpr std::string_view kAten = "aten::";
    if (op.substr(0, kAten.size()) == kAten) return op.substr(kAten.size());
    return op.find("::") == std::string_view::npos ? op : std::string_view();
}

const OpRelease* find(std::string_view name) {
    const auto* end = std::end(kOpReleases);
    const auto* it =
        std::lower_bound(std::begin(kOpReleases), end, name,
                         [](const OpRelease& r, std::string_view n) { return r.op < n; });
    return it != end && it->op == name ? it : nullptr;
}

} // namespace

std::optional<std::string> firstReleaseWith(std::string_view op) {
    const std::string_view name = atenName(op);
    if (name.empty()) return std::nullopt;
    if (const auto* r = find(name)) return std::string(r->release);
    const size_t dot = name.find('.');
    if (dot != std::string_view::npos && name.find('(') == std::string_view::npos)
        if (const auto* r = find(name.substr(0, dot))) return std::string(r->release);
    return std::nullopt;
}

std::vector<std::string> argumentsAddedTo(std::string_view op) {
    std::string_view name = atenName(op);
    name = name.substr(0, name.find('.'));
    std::vector<std::string> out;
    if (name.empty()) return out;
    const std::string prefix = std::string(name) + "(";
    const auto* it =
        std::lower_bound(std::begin(kOpReleases), std::end(kOpReleases), std::string_view(prefix),
                         [](const OpRelease& r, std::string_view n) { return r.op < n; });
    for (; it != std::end(kOpReleases) && it->op.substr(0, prefix.size()) == prefix; ++it) {
        const std::string_view argument =
            it->op.substr(prefix.size(), it->op.size() - prefix.size() - 1);
        out.push_back(std::string(argument) + " (" + std::string(it->release) + ")");
    }
    return out;
}

std::string newestReleaseRead() {
    return std::string(kNewestReleaseRead);
}

} // namespace ts
