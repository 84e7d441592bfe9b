// The daemon on real sockets: a stand-in for libkineto's client (a datagram
// socket with its own name, sending what torch sends) polls it, gets its
// answer within libkineto's wait, is traced, and a second daemon on the same
// name is refused saying who holds it.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

#include "KinetoClient.h"
#include "ondemand/IpcWire.h"
#include "ondemand/OnDemandDaemon.h"

namespace fs = std::filesystem;
using namespace ts::ondemand;
using namespace std::chrono_literals;

using ts::testing::KinetoClient;

namespace {

std::string testName(const std::string& what) {
    return ts::testing::daemonTestName(what);
}

std::string ownPoll() {
    return KinetoClient::ownPoll();
}

} // namespace

TEST(OnDemandDaemon, AnswersAPollWithinLibkinetosWait) {
    const std::string name = testName("answer");
    auto started = OnDemandDaemon::start(defaultDaemonSettings(), name, "");
    ASSERT_TRUE(started.daemon) << started.error;
    EXPECT_EQ(started.daemon->where(), "the abstract socket @" + name);
    KinetoClient client(testName("client"), "");
    ASSERT_TRUE(client.bound());
    std::string config = "unset";
    ASSERT_TRUE(decodeConfigReply(client.ask(name, ownPoll()), config));
    EXPECT_EQ(config, "");
    const auto processes = started.daemon->processes();
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(processes[0].pid, ::getpid());
    EXPECT_EQ(processes[0].uid, ::getuid());

    // Garbage and a flood of it: no reply, counted, and the daemon still answers.
    // (Sent as fast as the socket takes them; a full queue drops the rest.)
    for (int i = 0; i < 2000; ++i)
        client.send(name, std::string(static_cast<size_t>(i % 90), static_cast<char>(i)));
    std::string reply;
    for (int attempt = 0; attempt < 40 && reply.empty(); ++attempt)
        reply = client.ask(name, ownPoll());
    EXPECT_TRUE(decodeConfigReply(reply, config));
    EXPECT_GE(started.daemon->counters().malformed, 100);
}

TEST(OnDemandDaemon, TracesThePollingProcess) {
    const std::string name = testName("trace");
    const fs::path out = fs::path(::testing::TempDir()) / ("trainscope_daemon_out_" + name);
    fs::remove_all(out);
    auto started = OnDemandDaemon::start(defaultDaemonSettings(), name, "");
    ASSERT_TRUE(started.daemon) << started.error;
    KinetoClient client(testName("traced"), "");
    std::string config;
    ASSERT_TRUE(decodeConfigReply(client.ask(name, ownPoll()), config));
    std::string error;
    TraceRequest request;
    request.iterations = 2;
    const int id = started.daemon->trace({::getpid(), ""}, request, out.string(), error);
    ASSERT_NE(id, 0) << error;
    ASSERT_TRUE(decodeConfigReply(client.ask(name, ownPoll()), config));
    EXPECT_NE(config.find("ACTIVITIES_ITERATIONS=3"), std::string::npos);
    // Write what libkineto would, where the config said.
    const std::string written = started.daemon->ticket(id)->processes[0].written;
    std::ofstream(written) << "{\"traceEvents\": []}";
    for (int i = 0; i < 50 && !started.daemon->ticket(id)->finished(); ++i)
        std::this_thread::sleep_for(20ms);
    const TraceTicket done = *started.daemon->ticket(id);
    ASSERT_TRUE(done.succeeded()) << done.processes[0].message;
    EXPECT_TRUE(fs::exists(done.processes[0].path));
    EXPECT_EQ(fs::path(done.processes[0].path).parent_path(), out);
}

TEST(OnDemandDaemon, ASecondDaemonIsToldWhoHoldsTheSocket) {
    const std::string name = testName("taken");
    auto first = OnDemandDaemon::start(defaultDaemonSettings(), name, "");
    ASSERT_TRUE(first.daemon) << first.error;
    auto second = OnDemandDaemon::start(defaultDaemonSettings(), name, "");
    EXPECT_FALSE(second.daemon);
    EXPECT_EQ(second.holder_pid, ::getpid());
    EXPECT_NE(second.error.find("the abstract socket @" + name + " is taken by "),
              std::string::npos)
        << second.error;
    EXPECT_NE(second.error.find("(pid " + std::to_string(::getpid())), std::string::npos);
}

TEST(OnDemandDaemon, ServesASocketFileWhereKinetoIsToldTo) {
    const fs::path dir = fs::path(::testing::TempDir()) / ("trainscope_ipc_" + testName("dir"));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string name = "dynolog";
    {
        auto started = OnDemandDaemon::start(defaultDaemonSettings(), name, dir.string());
        ASSERT_TRUE(started.daemon) << started.error;
        EXPECT_EQ(started.daemon->where(), "the socket file " + (dir / name).string());
        KinetoClient client("client", dir.string());
        std::string config = "unset";
        ASSERT_TRUE(decodeConfigReply(client.ask(name, ownPoll()), config));
        EXPECT_EQ(config, "");
    }
    EXPECT_FALSE(fs::exists(dir / name)) << "the socket file is removed with the daemon";
    // A socket file left by a daemon that died is taken over.
    std::ofstream(dir / name) << "";
    auto again = OnDemandDaemon::start(defaultDaemonSettings(), name, dir.string());
    EXPECT_TRUE(again.daemon) << again.error;
}
