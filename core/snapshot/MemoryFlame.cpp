#include "snapshot/MemoryFlame.h"

#include <algorithm>
#include <map>
#include <memory>

namespace ts {
namespace {

// The tree as it is merged: children by frame text, so that the same frame
// reached by two stacks with equal outer frames is one node.
struct Building {
    std::string frame;
    int64_t bytes = 0, self = 0, blocks = 0;
    std::map<std::string, std::unique_ptr<Building>> children;
};

void flatten(const Building& node, int32_t parent, int32_t depth, int64_t offset,
             MemoryFlame& out) {
    const auto me = int32_t(out.nodes.size());
    out.nodes.push_back({node.frame, parent, depth, node.bytes, offset, node.self, node.blocks});
    out.depth = std::max(out.depth, depth);
    std::vector<const Building*> kids;
    for (const auto& [frame, child] : node.children)
        kids.push_back(child.get());
    std::stable_sort(kids.begin(), kids.end(),
                     [](const Building* a, const Building* b) { return a->bytes > b->bytes; });
    for (const Building* child : kids) {
        flatten(*child, me, depth + 1, offset, out);
        offset += child->bytes;
    }
}

} // namespace

MemoryFlame memoryFlame(const MemorySnapshot& s, const std::vector<StackBytes>& alive) {
    Building root;
    root.frame = "all";
    for (const StackBytes& sb : alive) {
        Building* at = &root;
        at->bytes += sb.bytes;
        at->blocks += sb.blocks;
        for (size_t i = s.stackSize(sb.stack); i-- > 0;) { // outermost first
            const SnapshotFrame& frame = s.frameOf(sb.stack, i);
            if (!viewerShowsFrame(s, frame)) continue;
            const std::string text = s.frameText(frame);
            std::unique_ptr<Building>& child = at->children[text];
            if (!child) {
                child = std::make_unique<Building>();
                child->frame = text;
            }
            at = child.get();
            at->bytes += sb.bytes;
            at->blocks += sb.blocks;
        }
        at->self += sb.bytes;
    }
    MemoryFlame flame;
    flatten(root, -1, 0, 0, flame);
    return flame;
}

} // namespace ts
