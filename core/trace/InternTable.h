#pragma once
// The index behind Trace's interned names and strings: which position of a
// vector of strings holds a text. Open addressing over (hash tag, position)
// slots, looked up with a string_view, so that a reader interning millions
// of shapes and names copies no text and allocates nothing for the ones it
// has seen (a std::unordered_map<std::string, int> needs a std::string key
// for every lookup, and a node for every entry).
//
// The table holds positions, not texts: the vector owns them. It rebuilds
// itself when the vector was filled or changed without it (the trace index
// loads names directly), as the maps it replaces did.
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

class InternTable {
public:
    // The position of `text` in `strings`, appending it when absent.
    int32_t intern(std::vector<std::string>& strings, std::string_view text) {
        if (count_ != strings.size()) rebuild(strings);
        uint32_t& recent = recent_[recentSlot(text)];
        if (recent != 0 && strings[recent - 1] == text) return static_cast<int32_t>(recent - 1);
        if ((count_ + 1) * 2 > slots_.size()) grow(strings);
        const uint64_t hash = std::hash<std::string_view>{}(text);
        const auto tag = static_cast<uint32_t>(hash >> 32);
        const size_t mask = slots_.size() - 1;
        for (size_t i = static_cast<size_t>(hash) & mask;; i = (i + 1) & mask) {
            const Slot& s = slots_[i];
            if (s.position == 0) break; // empty: not there
            if (s.tag == tag && strings[s.position - 1] == text) {
                recent = s.position;
                return static_cast<int32_t>(s.position - 1);
            }
        }
        strings.emplace_back(text);
        insert(hash, static_cast<uint32_t>(strings.size()));
        ++count_;
        recent = static_cast<uint32_t>(strings.size());
        return static_cast<int32_t>(strings.size() - 1);
    }

    size_t memoryBytes() const { return slots_.capacity() * sizeof(Slot) + sizeof(recent_); }

private:
    // The texts interned lately, by a slot made from their length and three
    // 8-byte pieces: a hit costs one comparison instead of hashing the whole
    // text. GPU traces intern kernel names of a few hundred bytes on every
    // kernel event, where hashing was the larger part of the intern.
    static size_t recentSlot(std::string_view text) {
        uint64_t a = text.size(), b = 0, c = 0;
        if (text.size() >= 8) {
            std::memcpy(&b, text.data(), 8);
            std::memcpy(&c, text.data() + text.size() - 8, 8);
            uint64_t m = 0;
            std::memcpy(&m, text.data() + text.size() / 2 - 4, 8);
            a ^= m * 0x9E3779B97F4A7C15ull;
        } else {
            std::memcpy(&b, text.data(), text.size());
        }
        const uint64_t h = (a + b * 0xC2B2AE3D27D4EB4Full) ^ (c * 0x165667B19E3779F9ull);
        return static_cast<size_t>((h ^ (h >> 29)) * 0xFF51AFD7ED558CCDull >> 56);
    }

    struct Slot {
        uint32_t tag = 0;      // the hash's high half
        uint32_t position = 0; // position + 1; 0: empty
    };

    void insert(uint64_t hash, uint32_t position) {
        const size_t mask = slots_.size() - 1;
        size_t i = static_cast<size_t>(hash) & mask;
        while (slots_[i].position != 0)
            i = (i + 1) & mask;
        slots_[i] = Slot{static_cast<uint32_t>(hash >> 32), position};
    }
    void grow(const std::vector<std::string>& strings) { reindex(strings, count_); }
    void rebuild(const std::vector<std::string>& strings) {
        count_ = strings.size();
        recent_.fill(0);
        reindex(strings, count_);
    }
    // Slots for the first `count` strings, at most half full. A text that
    // repeats (strings filled without the table) keeps its first position,
    // as try_emplace did.
    void reindex(const std::vector<std::string>& strings, size_t count) {
        size_t size = 64;
        while ((count + 1) * 2 > size)
            size *= 2;
        slots_.assign(size, Slot{});
        for (size_t p = 0; p < count; ++p) {
            const uint64_t hash = std::hash<std::string_view>{}(strings[p]);
            if (!find(strings, strings[p], hash)) insert(hash, static_cast<uint32_t>(p + 1));
        }
    }
    bool find(const std::vector<std::string>& strings, std::string_view text, uint64_t hash) const {
        const auto tag = static_cast<uint32_t>(hash >> 32);
        const size_t mask = slots_.size() - 1;
        for (size_t i = static_cast<size_t>(hash) & mask; slots_[i].position != 0;
             i = (i + 1) & mask)
            if (slots_[i].tag == tag && strings[slots_[i].position - 1] == text) return true;
        return false;
    }

    std::vector<Slot> slots_;
    std::array<uint32_t, 256> recent_{}; // position + 1; 0: none
    size_t count_ = 0;                   // strings.size() when the table was last in step with it
};

} // namespace ts
