#pragma once
// A pickle the machine cannot run: what() names the file (the caller's
// `origin`), what was wrong and the byte. The weights readers above turn it
// into their own error; the fuzz target expects nothing else.
#include <stdexcept>

namespace ts::pickle {

class PickleError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace ts::pickle
