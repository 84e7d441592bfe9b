// The daemon on real sockets: a stand-in for libkineto's client (a datagram
// socket with its own name, sending what torch sends) polls it, gets its
// answer within libkineto's wait, is traced, and a second daemon on the same
// name is refused saying who holds it.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "ondemand/IpcWire.h"
#include "ondemand/OnDemandDaemon.h"

namespace fs = std::filesystem;
using namespace ts::ondemand;
using namespace std::chrono_literals;

namespace {

// A name of this test process's own, so tests never meet a real dynolog.
std::string testName(const std::string& what) {
    return "trainscope-test-" + what + "-" + std::to_string(::getpid());
}

// What libkineto's IpcFabricConfigClient does: bind a name, send, wait ~50 ms.
class KinetoClient {
public:
    KinetoClient(const std::string& name, const std::string& dir) : dir_(dir) {
        fd_ = ::socket(AF_UNIX, SOCK_DGRAM, 0);
        const std::string address = kinetoSocketAddress(name, dir);
        if (!dir.empty()) ::unlink((dir + "/" + name).c_str());
        bound_ = ::bind(fd_, reinterpret_cast<const sockaddr*>(address.data()),
                        static_cast<socklen_t>(address.size())) == 0;
    }
    ~KinetoClient() { ::close(fd_); }

    void send(const std::string& daemon, const std::string& bytes) {
        const std::string address = kinetoSocketAddress(daemon, dir_);
        ::sendto(fd_, bytes.data(), bytes.size(), 0,
                 reinterpret_cast<const sockaddr*>(address.data()),
                 static_cast<socklen_t>(address.size()));
    }
    // Sends `bytes` to the daemon named `daemon`; its reply, "" when none in 50 ms.
    std::string ask(const std::string& daemon, const std::string& bytes) {
        send(daemon, bytes);
        pollfd waiting{fd_, POLLIN, 0};
        if (::poll(&waiting, 1, 50) <= 0) return {};
        std::string reply(4096, '\0');
        const ssize_t got = ::recv(fd_, reply.data(), reply.size(), 0);
        reply.resize(got > 0 ? static_cast<size_t>(got) : 0);
        return reply;
    }
    bool bound() const { return bound_; }

private:
    int fd_ = -1;
    bool bound_ = false;
    std::string dir_;
};

std::string ownPoll() {
    return encodePollRequest({kConfigActivities, 0, {::getpid(), ::getppid()}});
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
    EXPECT_NE(config.find("ACTIVITIES_ITERATIONS=2"), std::string::npos);
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
