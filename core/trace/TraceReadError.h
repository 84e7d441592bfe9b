#pragma once
// The one error every trace reader throws, in its own header so that the JSON
// stream and the readers built on it do not include each other.
#include <stdexcept>

namespace ts {

// what() is a complete sentence naming the file and what is wrong with it.
class TraceReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace ts
