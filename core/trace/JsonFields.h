#pragma once
// Lenient field access on nlohmann json values, the way the trace reader has
// always read them: a missing key or a value of the wrong type reads as
// "absent", never as an error.
#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ts::json_fields {

inline const nlohmann::json* find(const nlohmann::json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

inline bool getInt(const nlohmann::json& object, const char* key, int64_t& out) {
    const nlohmann::json* v = find(object, key);
    if (!v || !v->is_number()) return false;
    out = v->is_number_float() ? static_cast<int64_t>(std::llround(v->get<double>()))
                               : v->get<int64_t>();
    return true;
}

inline std::string getString(const nlohmann::json& object, const char* key) {
    const nlohmann::json* v = find(object, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

} // namespace ts::json_fields
