// Asking a dynolog that owns libkineto's socket, through dynolog's request
// interface: the bytes `dyno gputrace` sends, dynolog's replies read, and a
// trace taken through a stand-in dynolog that writes the file as libkineto
// would.
#include <arpa/inet.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "ondemand/DynologClient.h"

namespace fs = std::filesystem;
using namespace ts::ondemand;

namespace {

// A one-request dynolog on a free loopback port: reads the request, answers
// `reply` (with {pid} substituted), and writes the trace the config names as
// libkineto would (the pid inserted before the extension).
class StandInDynolog {
public:
    explicit StandInDynolog(std::string reply) : reply_(std::move(reply)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
        socklen_t length = sizeof(address);
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
        port_ = ntohs(address.sin_port);
        ::listen(listener_, 1);
        thread_ = std::thread([this] { serveOne(); });
    }
    ~StandInDynolog() {
        thread_.join();
        ::close(listener_);
    }
    int port() const { return port_; }
    nlohmann::json request; // what it was sent, once served

private:
    void serveOne() {
        const int client = ::accept(listener_, nullptr, nullptr);
        int32_t size = 0;
        ::recv(client, &size, sizeof(size), MSG_WAITALL);
        std::string json(static_cast<size_t>(size), '\0');
        ::recv(client, json.data(), json.size(), MSG_WAITALL);
        request = nlohmann::json::parse(json);
        std::string reply = reply_;
        for (size_t at = reply.find("{pid}"); at != std::string::npos; at = reply.find("{pid}"))
            reply.replace(at, 5, std::to_string(::getpid()));
        const int32_t reply_size = static_cast<int32_t>(reply.size());
        ::send(client, &reply_size, sizeof(reply_size), 0);
        ::send(client, reply.data(), reply.size(), 0);
        ::close(client);
        const std::string config = request["config"];
        const std::string key = "ACTIVITIES_LOG_FILE=";
        const std::string log = config.substr(key.size(), config.find('\n') - key.size());
        if (reply_.find("\"activityProfilersTriggered\": [{pid}]") != std::string::npos)
            std::ofstream(tracePathOfProcess(log, ::getpid())) << "{\"traceEvents\": []}";
    }
    std::string reply_;
    int listener_ = -1;
    int port_ = 0;
    std::thread thread_;
};

} // namespace

TEST(DynologClient, SendsWhatDynoGputraceSends) {
    DynologRequest request{"ACTIVITIES_ITERATIONS=3", 0, {42}, 1000};
    const std::string bytes = encodeDynologRequest(request);
    int32_t size = 0;
    std::memcpy(&size, bytes.data(), sizeof(size));
    ASSERT_EQ(static_cast<size_t>(size), bytes.size() - 4);
    const auto json = nlohmann::json::parse(bytes.substr(4));
    EXPECT_EQ(json["fn"], "setKinetOnDemandRequest");
    EXPECT_EQ(json["config"], "ACTIVITIES_ITERATIONS=3");
    EXPECT_EQ(json["pids"], nlohmann::json::array({42}));
    EXPECT_EQ(json["job_id"], 0);
}

TEST(DynologClient, ReadsItsReplies) {
    DynologReply reply = parseDynologReply(
        R"({"processesMatched": [5, 6], "eventProfilersTriggered": [], )"
        R"("activityProfilersTriggered": [5], "eventProfilersBusy": 0, "activityProfilersBusy": 1})");
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.matched, (std::vector<int>{5, 6}));
    EXPECT_EQ(reply.triggered, (std::vector<int>{5}));
    EXPECT_EQ(reply.busy, 1);
    EXPECT_EQ(parseDynologReply(R"({"status": "failed"})").error,
              "dynolog refused the request: failed");
    EXPECT_FALSE(parseDynologReply("<html>").ok);
    EXPECT_FALSE(parseDynologReply(R"({"processesMatched": 3})").ok);
}

TEST(DynologClient, TracesThroughAStandInDynolog) {
    const fs::path out = fs::path(::testing::TempDir()) / "trainscope_dynolog_out";
    fs::remove_all(out);
    StandInDynolog dynolog(
        R"({"processesMatched": [{pid}], "activityProfilersTriggered": [{pid}], )"
        R"("eventProfilersTriggered": [], "activityProfilersBusy": 0})");
    TraceRequest request;
    request.iterations = 2;
    std::vector<std::string> said;
    const TraceTicket ticket = traceThroughDynolog(
        ::getpid(), request, out.string(), std::chrono::seconds(10),
        [&said](const std::string& line) { said.push_back(line); }, dynolog.port());
    ASSERT_TRUE(ticket.succeeded()) << ticket.processes[0].message;
    EXPECT_TRUE(fs::exists(ticket.processes[0].path));
    EXPECT_EQ(dynolog.request["pids"], nlohmann::json::array({::getpid()}));
    EXPECT_NE(dynolog.request["config"].get<std::string>().find("ACTIVITIES_ITERATIONS=3"),
              std::string::npos);
    ASSERT_EQ(said.size(), 2u);
    EXPECT_NE(said[1].find("written: "), std::string::npos);
}

TEST(DynologClient, SaysWhyDynologCouldNotTrace) {
    StandInDynolog busy(R"({"processesMatched": [{pid}], "activityProfilersTriggered": [], )"
                        R"("activityProfilersBusy": 1})");
    const TraceTicket ticket = traceThroughDynolog(
        ::getpid(), TraceRequest{}, "/nowhere", std::chrono::seconds(1), [](const std::string&) {},
        busy.port());
    ASSERT_FALSE(ticket.succeeded());
    EXPECT_NE(ticket.processes[0].message.find("busy"), std::string::npos);
    // Nobody on the port.
    const TraceTicket nobody = traceThroughDynolog(
        ::getpid(), TraceRequest{}, "/nowhere", std::chrono::seconds(1), [](const std::string&) {},
        1);
    EXPECT_NE(nobody.processes[0].message.find("cannot reach dynolog on localhost:1"),
              std::string::npos);
}
