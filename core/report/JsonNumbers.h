#pragma once
// Integer fields of the files Trainscope reads back (run.json, and the
// integer columns of ops.csv and steps.csv): a value written as a float
// (1e96) converts to an integer only when it fits, since converting an
// out-of-range double is undefined behaviour (found by fuzz_run_dir).
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace ts {

// Whether `d` converts to Int: within [-2^(bits-1), 2^(bits-1)), not NaN.
template <typename Int> bool fitsInteger(double d) {
    static_assert(std::is_integral_v<Int> && std::is_signed_v<Int>);
    const double low = static_cast<double>(std::numeric_limits<Int>::min()); // -2^(bits-1)
    return d >= low && d < -low;
}

// run.json's field `key`: out of range throws std::out_of_range naming the
// key; a missing or null key gives the fallback, as json::value() does.
template <typename Int> Int intValue(const nlohmann::json& object, const char* key, Int fallback) {
    static_assert(std::is_integral_v<Int> && std::is_signed_v<Int>);
    if (!object.is_object()) return object.value(key, fallback); // throws type_error, as before
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return fallback;
    if (it->is_number_float()) {
        const double d = it->template get<double>();
        if (!fitsInteger<Int>(d))
            throw std::out_of_range(std::string("'") + key + "' is " + it->dump() +
                                    ", out of range for an integer");
        return static_cast<Int>(d);
    }
    return it->template get<Int>();
}

} // namespace ts
