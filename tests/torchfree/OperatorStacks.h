#pragma once
// How many of a trace's operators have a call stack, and the stack of the
// first call of one operator: what the tests of with_stack traces check.
#include <cstddef>
#include <string>

#include "trace/Trace.h"

namespace ts::test {

struct OperatorStacks {
    size_t ops = 0;        // operator events
    size_t with_stack = 0; // of them, those with a call stack
    std::string first;     // the stack of the first `name` that has one
};

inline OperatorStacks operatorStacks(const Trace& t, const std::string& name) {
    OperatorStacks out;
    for (size_t i = 0; i < t.events.size(); ++i) {
        if (t.events.core(i).category != KinetoCategory::Operator) continue;
        ++out.ops;
        const int32_t stack = t.events.callStack(i);
        if (stack < 0) continue;
        ++out.with_stack;
        if (out.first.empty() && t.nameOf(t.events[i]) == name)
            out.first = t.strings[size_t(stack)];
    }
    return out;
}

} // namespace ts::test
