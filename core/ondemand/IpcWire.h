#pragma once
// The datagrams of Kineto's IPC fabric (libkineto's IpcFabricConfigClient and
// dynolog's ipcfabric), the daemon's side: what a PyTorch process started with
// KINETO_USE_DAEMON=1 sends, and the replies it waits for. Each datagram is a
// header (the body's size as a 64-bit integer, then a 32-byte NUL-padded type
// name) followed by the body, all in the host's byte order: both ends are on
// one machine. Parsing is total: any bytes give a message or a reason.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ts::ondemand {

inline constexpr size_t kTypeNameSize = 32;
inline constexpr size_t kHeaderSize = 8 + kTypeNameSize;
// Kineto sends its own pid and its ancestors' (a handful); a body claiming
// more is not Kineto's.
inline constexpr int32_t kMaxPids = 64;

// The bits of a poll's config type (libkineto's LibkinetoConfigType).
inline constexpr int32_t kConfigEvents = 1;
inline constexpr int32_t kConfigActivities = 2;

// "req": a poll for an on-demand config, every few seconds. `config_type`
// lacks kConfigActivities while the process's activity profiler is busy (a
// trace running, ours or its own torch.profiler). `pids`: the process first,
// then its ancestors.
struct PollRequest {
    int32_t config_type = 0;
    int64_t job_id = 0;
    std::vector<int32_t> pids;
};

// "ctxt": a process registering a GPU context (Kineto with CUDA, once per
// device); the reply is how many processes of the job use that device.
struct ContextRequest {
    int32_t device = 0;
    int32_t pid = 0;
    int64_t job_id = 0;
};

using Message = std::variant<PollRequest, ContextRequest>;

struct ParsedDatagram {
    bool ok = false;
    Message message;
    std::string error; // why the bytes are not a message, in plain words
};

ParsedDatagram parseDatagram(std::string_view bytes);

// The reply to a poll: the config text (empty: nothing to do).
std::string encodeConfigReply(std::string_view config);
// The reply to a context registration.
std::string encodeContextReply(int32_t processes);
// What Kineto sends (for tests, the fuzzer's seeds and the benchmark's client).
std::string encodePollRequest(const PollRequest& request);
std::string encodeContextRequest(const ContextRequest& request);
// The config text of a reply (the inverse of encodeConfigReply), for the same.
bool decodeConfigReply(std::string_view bytes, std::string& config);

} // namespace ts::ondemand
