#include "SnapshotLayout.h"

namespace ts::snapgen {
namespace {

constexpr const char* kFixed[] = {"segments",
                                  "device_traces",
                                  "allocator_settings",
                                  "external_annotations",
                                  "device",
                                  "address",
                                  "total_size",
                                  "allocated_size",
                                  "active_size",
                                  "requested_size",
                                  "stream",
                                  "segment_type",
                                  "segment_pool_id",
                                  "is_expandable",
                                  "frames",
                                  "blocks",
                                  "size",
                                  "state",
                                  "action",
                                  "addr",
                                  "device_free",
                                  "time_us",
                                  "name",
                                  "filename",
                                  "line",
                                  "large",
                                  "small",
                                  "active_allocated",
                                  "active_pending_free",
                                  "inactive",
                                  "alloc",
                                  "free_requested",
                                  "free_completed",
                                  "segment_alloc",
                                  "segment_free",
                                  "oom",
                                  "PYTORCH_CUDA_ALLOC_CONF",
                                  "max_split_size",
                                  "garbage_collection_threshold",
                                  "expandable_segments",
                                  "roundup_power2_divisions",
                                  "",
                                  "1",
                                  "2"};
static_assert(std::size(kFixed) == kFixedTexts);

constexpr const char* kNames[] = {"forward",    "backward",   "step", "_conv_forward", "linear",
                                  "relu",       "train_step", "main", "<module>",      "_call_impl",
                                  "layer_norm", "attention",  "mlp",  "loss_fn"};
constexpr const char* kUserFiles[] = {"/home/user/project/train.py", "/home/user/project/model.py",
                                      "/home/user/project/data.py"};
constexpr const char* kTorchFiles[] = {"/usr/lib/python3/site-packages/torch/nn/modules/conv.py",
                                       "/usr/lib/python3/site-packages/torch/nn/modules/linear.py",
                                       "/usr/lib/python3/site-packages/torch/nn/functional.py",
                                       "/usr/lib/python3/site-packages/torch/optim/adam.py",
                                       "/usr/lib/python3/site-packages/torch/autograd/graph.py"};
constexpr uint32_t kFrameCount = 120, kStackCount = 300;

} // namespace

SnapshotLayout::SnapshotLayout(PythonRandom& rng) : texts_(std::begin(kFixed), std::end(kFixed)) {
    const auto add = [&](std::string t) {
        texts_.push_back(std::move(t));
        return uint32_t(texts_.size() - 1);
    };
    // A name drawn for one of the first 40 frames is names[k] itself, one
    // object (so one memo entry) for every frame that drew it.
    const uint32_t names = add(kNames[0]);
    for (size_t i = 1; i < std::size(kNames); ++i)
        add(kNames[i]);
    const uint32_t files = add(kUserFiles[0]);
    for (size_t i = 1; i < std::size(kUserFiles); ++i)
        add(kUserFiles[i]);
    const uint32_t torch_files = add(kTorchFiles[0]);
    for (size_t i = 1; i < std::size(kTorchFiles); ++i)
        add(kTorchFiles[i]);
    for (uint32_t i = 0; i < kFrameCount; ++i) { // frame_pool
        const bool user = i % 3 == 0;
        PoolFrame f;
        const auto drawn = uint32_t(rng.below(std::size(kNames)));
        f.name = i < 40 ? names + drawn : add(kNames[drawn] + ("_" + std::to_string(i)));
        f.filename = user ? files + uint32_t(rng.below(std::size(kUserFiles)))
                          : torch_files + uint32_t(rng.below(std::size(kTorchFiles)));
        f.line = rng.range(1, 2000);
        frames_.push_back(f);
    }
    stacks_.emplace_back();                      // the shared empty list: "no frames"
    for (uint32_t s = 0; s < kStackCount; ++s) { // stack_pool: a leaf, then main's frames
        std::vector<uint32_t> frames(size_t(rng.range(2, 24)));
        for (uint32_t& f : frames)
            f = uint32_t(rng.below(kFrameCount));
        for (uint32_t outer = 4; outer-- > 0;)
            frames.push_back(outer);
        stacks_.push_back(std::move(frames));
    }
}

void SnapshotLayout::start(PickleWriter& w) {
    w_ = &w;
    text_memo_.assign(texts_.size(), -1);
    frame_memo_.assign(frames_.size(), -1);
    stack_memo_.assign(stacks_.size(), -1);
    pool_id_memo_ = -1;
}

void SnapshotLayout::text(uint32_t id) {
    if (text_memo_[id] >= 0) return w_->get(uint64_t(text_memo_[id]));
    w_->text(texts_[id]);
    text_memo_[id] = int64_t(w_->memoize());
}

void SnapshotLayout::frame(uint32_t f) {
    if (frame_memo_[f] >= 0) return w_->get(uint64_t(frame_memo_[f]));
    w_->emptyDict();
    frame_memo_[f] = int64_t(w_->memoize());
    const PoolFrame& pf = frames_[f];
    ItemBatches items(*w_, 3, true);
    items.before(), text(kName), text(pf.name), items.after();
    items.before(), text(kFilename), text(pf.filename), items.after();
    items.before(), text(kLine), w_->integer(pf.line), items.after();
}

void SnapshotLayout::stack(uint32_t s) {
    if (stack_memo_[s] >= 0) return w_->get(uint64_t(stack_memo_[s]));
    w_->emptyList();
    stack_memo_[s] = int64_t(w_->memoize());
    ItemBatches items(*w_, stacks_[s].size(), false);
    for (const uint32_t f : stacks_[s])
        items.before(), frame(f), items.after();
}

void SnapshotLayout::entry(const Entry& e) {
    w_->emptyDict();
    w_->memoize();
    ItemBatches items(*w_, 6, true);
    items.before(), text(kAction), text(kAlloc + uint32_t(e.action)), items.after();
    items.before(), text(e.action == Action::Oom ? kDeviceFree : kAddr), w_->integer(e.addr),
        items.after();
    items.before(), text(kSize), w_->integer(e.size), items.after();
    items.before(), text(kStream), w_->integer(0), items.after();
    items.before(), text(kTimeUs), w_->integer(e.time_us), items.after();
    items.before(), text(kFrames), stack(e.stack), items.after();
}

void SnapshotLayout::block(const ToyBlock& b) {
    w_->emptyDict();
    w_->memoize();
    ItemBatches items(*w_, 5, true);
    items.before(), text(kAddress), w_->integer(b.address), items.after();
    items.before(), text(kSize), w_->integer(b.size), items.after();
    items.before(), text(kRequestedSize), w_->integer(b.requested), items.after();
    items.before(), text(kState), text(kActiveAllocated + uint32_t(b.state)), items.after();
    items.before(), text(kFrames), stack(b.stack), items.after();
}

void SnapshotLayout::segment(const ToySegment& s, int device) {
    int64_t allocated = 0, active = 0, requested = 0;
    for (const ToyBlock& b : s.blocks) {
        if (b.state == State::ActiveAllocated) allocated += b.size;
        if (b.state != State::Inactive) active += b.size, requested += b.requested;
    }
    w_->emptyDict();
    w_->memoize();
    ItemBatches items(*w_, 12, true);
    const auto number = [&](uint32_t key, int64_t v) {
        items.before(), text(key), w_->integer(v), items.after();
    };
    number(kDevice, device);
    number(kAddress, s.address);
    number(kTotalSize, s.total);
    number(kAllocatedSize, allocated);
    number(kActiveSize, active);
    number(kRequestedSize, requested);
    number(kStream, 0);
    items.before(), text(kSegmentType), text(s.small ? kSmall : kLarge), items.after();
    items.before(), text(kSegmentPoolId);
    if (pool_id_memo_ >= 0) {
        w_->get(uint64_t(pool_id_memo_));
    } else {
        w_->integer(0), w_->integer(0), w_->tuple2();
        pool_id_memo_ = int64_t(w_->memoize());
    }
    items.after();
    items.before(), text(kIsExpandable), w_->boolean(false), items.after();
    items.before(), text(kFrames), stack(s.stack), items.after();
    items.before(), text(kBlocks);
    w_->emptyList();
    w_->memoize();
    ItemBatches blocks(*w_, s.blocks.size(), false);
    for (const ToyBlock& b : s.blocks)
        blocks.before(), block(b), blocks.after();
    items.after();
}

void SnapshotLayout::allocatorSettings() {
    w_->emptyDict();
    w_->memoize();
    ItemBatches items(*w_, 5, true);
    items.before(), text(kAllocConf), text(kEmpty), items.after();
    items.before(), text(kMaxSplitSize), w_->integer(-1), items.after();
    items.before(), text(kGcThreshold), w_->real(0.0), items.after();
    items.before(), text(kExpandableSegments), w_->boolean(false), items.after();
    items.before(), text(kRoundupDivisions);
    w_->emptyDict();
    w_->memoize();
    ItemBatches divisions(*w_, 2, true);
    divisions.before(), text(kOne), w_->integer(0), divisions.after();
    divisions.before(), text(kTwo), w_->integer(0), divisions.after();
    items.after();
}

} // namespace ts::snapgen
