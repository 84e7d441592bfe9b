#pragma once
// Python objects as the Unpickler builds them. Only what checkpoints contain
// is modelled; any other object becomes an Opaque value that names its class,
// so an unrelated entry (an optimizer's custom state, say) cannot spoil a load.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ts::pickle {

// What a storage or tensor holds: defined by the reader whose hooks build
// them (models/TensorPayload.h, on LibTorch). The machine only passes it on.
struct TensorPayload;

enum class Kind {
    None,
    Bool,
    Int,
    Float,
    String,
    Bytes,
    Tuple,
    List,
    Dict,
    Global,
    Storage,
    Tensor,
    Opaque
};

struct Value;
// Shared because pickle memoizes objects and later ops mutate them in place.
using ValuePtr = std::shared_ptr<Value>;

struct Value {
    Kind kind = Kind::None;
    int64_t integer = 0;         // Bool, Int
    double real = 0;             // Float
    std::string text;            // String, Bytes, Global ("module.qualname"), Opaque (its class)
    std::vector<ValuePtr> items; // Tuple, List (and sets)
    std::vector<std::pair<ValuePtr, ValuePtr>> entries; // Dict, in insertion order
    std::unordered_map<std::string, size_t> index;      // Dict: hashable key -> entry
    std::shared_ptr<TensorPayload> payload;             // Storage, Tensor: the reader's

    Value() = default;
    Value(const Value&) = delete;
    Value& operator=(const Value&) = delete;
    // Releases what it holds level by level: a pickle nests as deep as its
    // bytes allow (2 bytes a level), deeper than recursion could go.
    ~Value();

    static ValuePtr make(Kind kind);
    static ValuePtr makeInt(int64_t v);
    static ValuePtr makeText(Kind kind, std::string text);

    bool isTextual() const { return kind == Kind::String || kind == Kind::Bytes; }
    // Dict insertion with Python semantics: an existing key keeps its place.
    void setItem(const ValuePtr& key, const ValuePtr& value);
    // Dict lookup by string key; nullptr when absent.
    ValuePtr get(const std::string& key) const;
};

const char* kindName(Kind kind);

} // namespace ts::pickle
