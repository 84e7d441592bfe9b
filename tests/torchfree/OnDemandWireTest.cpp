// Kineto's IPC fabric, the daemon's side: the datagrams a real PyTorch
// process sent (recorded from torch 2.15 on the CPU) and every malformed
// variant of them, and the config text a trace request becomes.
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>

#include "TestPaths.h"
#include "ondemand/IpcWire.h"
#include "ondemand/TraceRequest.h"

using namespace ts::ondemand;

namespace {

std::string recordedPoll() {
    std::ifstream in(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/ondemand/poll_torch2.15_cpu.bin",
                     std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string errorOf(const std::string& bytes) {
    return parseDatagram(bytes).error;
}

} // namespace

TEST(OnDemandWire, ReadsThePollTorchSent) {
    const std::string bytes = recordedPoll();
    ASSERT_EQ(bytes.size(), 64u); // 40-byte header, 16-byte head, two pids
    const ParsedDatagram parsed = parseDatagram(bytes);
    ASSERT_TRUE(parsed.ok) << parsed.error;
    const auto& poll = std::get<PollRequest>(parsed.message);
    EXPECT_EQ(poll.config_type, kConfigActivities);
    EXPECT_EQ(poll.job_id, 0);
    EXPECT_EQ(poll.pids, (std::vector<int32_t>{7741, 7739})); // the process, then `timeout`
    EXPECT_EQ(encodePollRequest(poll), bytes);
}

TEST(OnDemandWire, ContextRoundTrip) {
    const ContextRequest context{3, 4242, 77};
    const ParsedDatagram parsed = parseDatagram(encodeContextRequest(context));
    ASSERT_TRUE(parsed.ok) << parsed.error;
    const auto& read = std::get<ContextRequest>(parsed.message);
    EXPECT_EQ(read.device, 3);
    EXPECT_EQ(read.pid, 4242);
    EXPECT_EQ(read.job_id, 77);
    const std::string reply = encodeContextReply(2);
    ASSERT_EQ(reply.size(), kHeaderSize + 4);
    EXPECT_EQ(reply.substr(8, 5), std::string("ctxt\0", 5));
}

TEST(OnDemandWire, ConfigReplyIsTheTextAfterTheHeader) {
    const std::string reply = encodeConfigReply("ACTIVITIES_ITERATIONS=3");
    EXPECT_EQ(reply.size(), kHeaderSize + 23);
    std::string config;
    ASSERT_TRUE(decodeConfigReply(reply, config));
    EXPECT_EQ(config, "ACTIVITIES_ITERATIONS=3");
    EXPECT_TRUE(decodeConfigReply(encodeConfigReply(""), config));
    EXPECT_EQ(config, "");
}

TEST(OnDemandWire, MalformedDatagramsAreNamed) {
    const std::string poll = recordedPoll();
    EXPECT_NE(errorOf(poll.substr(0, 10)).find("shorter than the 40-byte header"),
              std::string::npos);
    EXPECT_NE(errorOf(poll.substr(0, poll.size() - 4)).find("announcing 24 bytes and carrying 20"),
              std::string::npos);
    std::string unknown = poll;
    unknown.replace(8, 3, "xyz");
    EXPECT_NE(errorOf(unknown).find("unknown type \"xyz\""), std::string::npos);
    std::string endless = poll;
    endless.replace(8, kTypeNameSize, std::string(kTypeNameSize, 'a'));
    EXPECT_NE(errorOf(endless).find("type name has no end"), std::string::npos);

    PollRequest request{kConfigActivities, 0, {}};
    EXPECT_NE(errorOf(encodePollRequest(request)).find("claiming 0 pids"), std::string::npos);
    request.pids.assign(kMaxPids + 1, 5);
    EXPECT_NE(errorOf(encodePollRequest(request)).find("claiming 65 pids"), std::string::npos);
    request.pids = {-3};
    EXPECT_NE(errorOf(encodePollRequest(request)).find("process id is -3"), std::string::npos);
    // A count that disagrees with the bytes: 2 claimed, 3 carried.
    request.pids = {1, 2, 3};
    std::string lying = encodePollRequest(request);
    lying[kHeaderSize + 4] = 2;
    EXPECT_NE(errorOf(lying).find("for 2 pids"), std::string::npos);
    // A config reply sent to the daemon: a "req" too short to be a poll.
    EXPECT_NE(errorOf(encodeConfigReply("abc")).find("\"req\") of 3 bytes"), std::string::npos);
}

TEST(OnDemandWire, IterationConfigStartsAtTheNextStep) {
    TraceRequest request;
    request.iterations = 3;
    request.shapes = true;
    EXPECT_EQ(kinetoConfig(request, "/tmp/t.json"),
              "ACTIVITIES_LOG_FILE=/tmp/t.json\n"
              "PROFILE_START_ITERATION=0\nPROFILE_START_ITERATION_ROUNDUP=1\n"
              "ACTIVITIES_ITERATIONS=4\n" // one more: the first is cut (OptimizerSteps.h)
              "PROFILE_REPORT_INPUT_SHAPES=true\nPROFILE_PROFILE_MEMORY=false\n"
              "PROFILE_WITH_STACK=false\nPROFILE_WITH_MODULES=false");
    // Several processes start together at a multiple of 100 steps, or the one asked.
    EXPECT_NE(kinetoConfig(request, "/tmp/t.json", 2).find("ROUNDUP=100\n"), std::string::npos);
    request.align_steps = 20;
    EXPECT_NE(kinetoConfig(request, "/tmp/t.json", 2).find("ROUNDUP=20\n"), std::string::npos);
}

TEST(OnDemandWire, DurationConfigAndChecks) {
    TraceRequest request;
    request.iterations = 0;
    request.duration_ms = 500;
    request.memory = request.stacks = request.modules = true;
    const std::string config = kinetoConfig(request, "/tmp/t.json");
    EXPECT_NE(config.find("PROFILE_START_TIME=0\nACTIVITIES_DURATION_MSECS=500\n"),
              std::string::npos);
    EXPECT_EQ(config.find("ITERATIONS"), std::string::npos);
    EXPECT_NE(config.find("PROFILE_PROFILE_MEMORY=true\nPROFILE_WITH_STACK=true\n"
                          "PROFILE_WITH_MODULES=true"),
              std::string::npos);
    EXPECT_EQ(checkTraceRequest(request), "");
    request.iterations = 2;
    EXPECT_EQ(checkTraceRequest(request), "give --iterations or --duration-ms, not both");
    request.duration_ms = 0;
    request.iterations = 5000;
    EXPECT_EQ(checkTraceRequest(request), "--iterations 5000: 1 to 1000 steps");
}

TEST(OnDemandWire, KinetoPutsThePidBeforeTheExtension) {
    EXPECT_EQ(tracePathOfProcess("/tmp/a.b/trace.json", 12), "/tmp/a.b/trace_12.json");
    EXPECT_EQ(tracePathOfProcess("/tmp/a.b/trace", 12), "/tmp/a.b/trace_12");
}
