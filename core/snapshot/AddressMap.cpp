#include "snapshot/AddressMap.h"

namespace ts {

size_t AddressMap::slot(int64_t address) const {
    auto x = uint64_t(address); // addresses are aligned: mix the high bits down
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return size_t(x) & mask_;
}

void AddressMap::rehash(size_t capacity) {
    std::vector<int64_t> keys(capacity, kEmpty);
    std::vector<uint64_t> values(capacity);
    keys.swap(keys_);
    values.swap(values_);
    mask_ = capacity - 1;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (keys[i] == kEmpty) continue;
        size_t at = slot(keys[i]);
        while (keys_[at] != kEmpty)
            at = (at + 1) & mask_;
        keys_[at] = keys[i];
        values_[at] = values[i];
    }
}

void AddressMap::insert(int64_t address, uint64_t value) {
    if (address == kEmpty) {
        count_ += has_empty_key_ ? 0 : 1;
        has_empty_key_ = true;
        empty_key_value_ = value;
        return;
    }
    if ((count_ + 1) * 2 > keys_.size()) rehash(keys_.size() * 2); // at most half full
    size_t at = slot(address);
    while (keys_[at] != kEmpty && keys_[at] != address)
        at = (at + 1) & mask_;
    if (keys_[at] == kEmpty) ++count_;
    keys_[at] = address;
    values_[at] = value;
}

bool AddressMap::contains(int64_t address) const {
    return const_cast<AddressMap*>(this)->find(address) != nullptr;
}

uint64_t* AddressMap::find(int64_t address) {
    if (address == kEmpty) return has_empty_key_ ? &empty_key_value_ : nullptr;
    for (size_t at = slot(address); keys_[at] != kEmpty; at = (at + 1) & mask_)
        if (keys_[at] == address) return &values_[at];
    return nullptr;
}

bool AddressMap::take(int64_t address, uint64_t* value) {
    if (address == kEmpty) {
        if (!has_empty_key_) return false;
        *value = empty_key_value_;
        has_empty_key_ = false;
        --count_;
        return true;
    }
    size_t at = slot(address);
    while (keys_[at] != address) {
        if (keys_[at] == kEmpty) return false;
        at = (at + 1) & mask_;
    }
    *value = values_[at];
    --count_;
    // Backward-shift deletion: later entries of the run move into the hole
    // when their home slot is at or before it, so no tombstones build up.
    size_t hole = at;
    for (size_t next = (hole + 1) & mask_; keys_[next] != kEmpty; next = (next + 1) & mask_) {
        const size_t home = slot(keys_[next]);
        if (((next - home) & mask_) >= ((next - hole) & mask_)) {
            keys_[hole] = keys_[next];
            values_[hole] = values_[next];
            hole = next;
        }
    }
    keys_[hole] = kEmpty;
    return true;
}

} // namespace ts
