#include "ondemand/IpcWire.h"

#include <cstring>

namespace ts::ondemand {

namespace {

constexpr std::string_view kPollType = "req";
constexpr std::string_view kContextType = "ctxt";
// A poll's body before its pids: type, count, job id.
constexpr size_t kPollFixedSize = 4 + 4 + 8;
// A context body: device, pid, job id.
constexpr size_t kContextSize = 4 + 4 + 8;

template <typename T> T readAt(std::string_view bytes, size_t offset) {
    T value{};
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

template <typename T> void append(std::string& out, T value) {
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.append(raw, sizeof(T));
}

std::string header(std::string_view type, size_t body_size) {
    std::string out;
    append<uint64_t>(out, body_size);
    std::string name(type);
    name.resize(kTypeNameSize, '\0');
    out += name;
    return out;
}

ParsedDatagram refused(std::string reason) {
    ParsedDatagram parsed;
    parsed.error = std::move(reason);
    return parsed;
}

ParsedDatagram parsePoll(std::string_view body) {
    if (body.size() < kPollFixedSize)
        return refused("a poll (\"req\") of " + std::to_string(body.size()) +
                       " bytes, shorter than its 16-byte head");
    PollRequest poll;
    poll.config_type = readAt<int32_t>(body, 0);
    const int32_t count = readAt<int32_t>(body, 4);
    poll.job_id = readAt<int64_t>(body, 8);
    if (count < 1 || count > kMaxPids)
        return refused("a poll claiming " + std::to_string(count) + " pids (1 to " +
                       std::to_string(kMaxPids) + " expected)");
    if (body.size() != kPollFixedSize + 4 * static_cast<size_t>(count))
        return refused("a poll of " + std::to_string(body.size()) + " bytes for " +
                       std::to_string(count) + " pids");
    for (int32_t i = 0; i < count; ++i)
        poll.pids.push_back(readAt<int32_t>(body, kPollFixedSize + 4 * static_cast<size_t>(i)));
    if (poll.pids.front() <= 0)
        return refused("a poll whose process id is " + std::to_string(poll.pids.front()));
    ParsedDatagram parsed;
    parsed.ok = true;
    parsed.message = std::move(poll);
    return parsed;
}

ParsedDatagram parseContext(std::string_view body) {
    if (body.size() != kContextSize)
        return refused("a context (\"ctxt\") of " + std::to_string(body.size()) +
                       " bytes (16 expected)");
    ContextRequest context{readAt<int32_t>(body, 0), readAt<int32_t>(body, 4),
                           readAt<int64_t>(body, 8)};
    ParsedDatagram parsed;
    parsed.ok = true;
    parsed.message = context;
    return parsed;
}

} // namespace

ParsedDatagram parseDatagram(std::string_view bytes) {
    if (bytes.size() < kHeaderSize)
        return refused("a datagram of " + std::to_string(bytes.size()) +
                       " bytes, shorter than the 40-byte header");
    const uint64_t size = readAt<uint64_t>(bytes, 0);
    const std::string_view name = bytes.substr(8, kTypeNameSize);
    const size_t end = name.find('\0');
    if (end == std::string_view::npos) return refused("a datagram whose type name has no end");
    const std::string_view type = name.substr(0, end);
    const std::string_view body = bytes.substr(kHeaderSize);
    if (size != body.size())
        return refused("a datagram announcing " + std::to_string(size) + " bytes and carrying " +
                       std::to_string(body.size()));
    if (type == kPollType) return parsePoll(body);
    if (type == kContextType) return parseContext(body);
    std::string shown;
    for (char c : type)
        shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    return refused("a datagram of unknown type \"" + shown + "\"");
}

std::string encodeConfigReply(std::string_view config) {
    return header(kPollType, config.size()) + std::string(config);
}

std::string encodeContextReply(int32_t processes) {
    std::string out = header(kContextType, 4);
    append<int32_t>(out, processes);
    return out;
}

std::string encodePollRequest(const PollRequest& request) {
    std::string body;
    append<int32_t>(body, request.config_type);
    append<int32_t>(body, static_cast<int32_t>(request.pids.size()));
    append<int64_t>(body, request.job_id);
    for (int32_t pid : request.pids)
        append<int32_t>(body, pid);
    return header(kPollType, body.size()) + body;
}

std::string encodeContextRequest(const ContextRequest& request) {
    std::string body;
    append<int32_t>(body, request.device);
    append<int32_t>(body, request.pid);
    append<int64_t>(body, request.job_id);
    return header(kContextType, body.size()) + body;
}

bool decodeConfigReply(std::string_view bytes, std::string& config) {
    if (bytes.size() < kHeaderSize) return false;
    if (bytes.substr(8, 4) != std::string_view("req\0", 4)) return false;
    if (readAt<uint64_t>(bytes, 0) != bytes.size() - kHeaderSize) return false;
    config = std::string(bytes.substr(kHeaderSize));
    return true;
}

} // namespace ts::ondemand
