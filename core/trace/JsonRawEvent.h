#pragma once
// The nlohmann path into the TraceBuilder: a TraceJsonVisitor that turns each
// streamed event (a small nlohmann::json) into a RawTraceEvent. Used for
// small inputs, builds without simdjson, the keys around the event list, and
// whenever the fast reader needs the exact error message of a malformed file.
#include <string>

#include <nlohmann/json.hpp>

#include "trace/RawTraceEvent.h"
#include "trace/TraceBuilder.h"
#include "trace/TraceJsonStream.h"

namespace ts {

// JSON text with torch.profiler's ", " separators ("[[4, 3, 8, 8], []]"), so
// shapes read back compare equal to the ones recorded.
std::string spacedJson(const nlohmann::json& v);

class JsonEventFeed : public TraceJsonVisitor {
public:
    explicit JsonEventFeed(TraceBuilder& builder) : builder_(builder) {}
    void event(nlohmann::json& event) override;
    void meta(const std::string& key, nlohmann::json& value) override;
    void malformed() override;
    // The next `n` list elements were built already (the fast reader
    // restarts the stream on an element it had read): they are dropped.
    void skipElements(int n) { skip_ = n; }

private:
    TraceBuilder& builder_;
    int skip_ = 0;
    // Texts the RawTraceEvent views while the builder reads it.
    std::string pid_, tid_, dims_upper_, dims_lower_, types_, concrete_;
};

} // namespace ts
