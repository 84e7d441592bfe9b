#pragma once
// Integer fields of the JSON files Trainscope reads back (run.json): a value
// written as a float (1e96) converts to an integer only when it fits, since
// nlohmann's get<int>() of an out-of-range double is undefined behaviour
// (found by fuzz_run_dir). Out of range throws std::out_of_range naming the
// key; a missing or null key gives the fallback, as json::value() does.
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace ts {

template <typename Int> Int intValue(const nlohmann::json& object, const char* key, Int fallback) {
    static_assert(std::is_integral_v<Int> && std::is_signed_v<Int>);
    if (!object.is_object()) return object.value(key, fallback); // throws type_error, as before
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return fallback;
    if (it->is_number_float()) {
        const double d = it->template get<double>();
        const double low = static_cast<double>(std::numeric_limits<Int>::min()); // -2^(bits-1)
        if (!(d >= low && d < -low))
            throw std::out_of_range(std::string("'") + key + "' is " + it->dump() +
                                    ", out of range for an integer");
        return static_cast<Int>(d);
    }
    return it->template get<Int>();
}

} // namespace ts
