#include "pickle/PickleValue.h"

namespace ts::pickle {
namespace {

// Index key for the hashable kinds dict keys have in checkpoints; empty when
// the key cannot be indexed (then it is always appended).
std::string indexKey(const Value& key) {
    switch (key.kind) {
    case Kind::String:
        return "s" + key.text;
    case Kind::Bytes:
        return "b" + key.text;
    case Kind::Int:
    case Kind::Bool:
        return "i" + std::to_string(key.integer);
    default:
        return {};
    }
}

} // namespace

Value::~Value() {
    std::vector<ValuePtr> pending;
    const auto takeChildren = [&pending](Value& v) {
        for (ValuePtr& item : v.items)
            pending.push_back(std::move(item));
        for (auto& [key, value] : v.entries) {
            pending.push_back(std::move(key));
            pending.push_back(std::move(value));
        }
        v.items.clear();
        v.entries.clear();
    };
    takeChildren(*this);
    while (!pending.empty()) {
        ValuePtr v = std::move(pending.back());
        pending.pop_back();
        // The last owner: its children wait here, so it dies without recursing.
        if (v && v.use_count() == 1) takeChildren(*v);
    }
}

ValuePtr Value::make(Kind kind) {
    auto v = std::make_shared<Value>();
    v->kind = kind;
    return v;
}

ValuePtr Value::makeInt(int64_t v) {
    auto out = make(Kind::Int);
    out->integer = v;
    return out;
}

ValuePtr Value::makeText(Kind kind, std::string text) {
    auto out = make(kind);
    out->text = std::move(text);
    return out;
}

void Value::setItem(const ValuePtr& key, const ValuePtr& value) {
    const std::string k = indexKey(*key);
    if (!k.empty()) {
        const auto found = index.find(k);
        if (found != index.end()) {
            entries[found->second].second = value;
            return;
        }
        index.emplace(k, entries.size());
    }
    entries.emplace_back(key, value);
}

ValuePtr Value::get(const std::string& key) const {
    const auto found = index.find("s" + key);
    return found == index.end() ? nullptr : entries[found->second].second;
}

const char* kindName(Kind kind) {
    switch (kind) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Float:
        return "float";
    case Kind::String:
        return "str";
    case Kind::Bytes:
        return "bytes";
    case Kind::Tuple:
        return "tuple";
    case Kind::List:
        return "list";
    case Kind::Dict:
        return "dict";
    case Kind::Global:
        return "class or function";
    case Kind::Storage:
        return "storage";
    case Kind::Tensor:
        return "tensor";
    case Kind::Opaque:
        return "object";
    }
    return "object";
}

} // namespace ts::pickle
