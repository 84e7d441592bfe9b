// The daemon's state (ondemand/LiveJobs) on datagrams and a clock given by
// the test: who is answered, how processes group into jobs, and a trace
// asked, handed at the next poll, written, moved, or given up on.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <unistd.h>

#include "ondemand/LiveJobs.h"

namespace fs = std::filesystem;
using namespace ts::ondemand;
using namespace std::chrono_literals;

namespace {

constexpr unsigned kUser = 1000;

struct FakeMachine {
    std::map<int, std::map<std::string, std::string>> environments;
    std::set<int> alive;
};

LiveJobs::Settings settingsFor(FakeMachine& machine) {
    LiveJobs::Settings settings;
    settings.uid = kUser;
    settings.process_info = [](int pid) {
        ProcessInfo info;
        info.pid = pid;
        info.command_line = "python train.py --pid " + std::to_string(pid);
        return info;
    };
    settings.environment = [&machine](int pid) { return machine.environments[pid]; };
    settings.alive = [&machine](int pid) { return machine.alive.count(pid) > 0; };
    return settings;
}

Datagram poll(int pid, std::vector<int32_t> ancestors = {1}, int32_t type = kConfigActivities,
              unsigned uid = kUser, int sender_pid = 0) {
    PollRequest request{type, 0, {pid}};
    request.pids.insert(request.pids.end(), ancestors.begin(), ancestors.end());
    Datagram datagram;
    datagram.bytes = encodePollRequest(request);
    datagram.credentials = Credentials{sender_pid != 0 ? sender_pid : pid, uid, uid};
    return datagram;
}

std::string configIn(const std::optional<std::string>& reply) {
    std::string config;
    EXPECT_TRUE(reply && decodeConfigReply(*reply, config));
    return config;
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = fs::path(::testing::TempDir()) / ("trainscope_livejobs_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeTrace(const std::string& path, const std::string& text = "{\"traceEvents\": []}\n") {
    std::ofstream(path) << text;
}

} // namespace

TEST(LiveJobs, AnswersOnlyItsUsersProcessesAndTheirOwnPids) {
    FakeMachine machine;
    LiveJobs jobs(settingsFor(machine));
    const auto t0 = Clock::now();
    EXPECT_FALSE(jobs.receive(poll(50, {1}, kConfigActivities, 0), t0));         // root's process
    EXPECT_FALSE(jobs.receive(poll(50, {1}, kConfigActivities, kUser, 51), t0)); // claims 50
    Datagram garbage;
    garbage.bytes = "hello";
    garbage.credentials = Credentials{52, kUser, kUser};
    EXPECT_FALSE(jobs.receive(garbage, t0));
    EXPECT_TRUE(jobs.processes().empty());
    EXPECT_EQ(jobs.counters().other_users, 1);
    EXPECT_EQ(jobs.counters().forged_pids, 1);
    EXPECT_EQ(jobs.counters().malformed, 1);
    EXPECT_NE(jobs.counters().last_error.find("shorter than the 40-byte header"),
              std::string::npos);
    // Its own process, with nothing asked: an empty config.
    EXPECT_EQ(configIn(jobs.receive(poll(50, {40, 1}), t0)), "");
    const std::vector<LiveProcess> list = jobs.processes();
    ASSERT_EQ(list.size(), 1u);
    const LiveProcess& p = list.front();
    EXPECT_EQ(p.pid, 50);
    EXPECT_EQ(p.ancestors, (std::vector<int32_t>{40, 1}));
    EXPECT_EQ(p.job, "pid 50");
    EXPECT_EQ(p.rank, -1);
    EXPECT_EQ(p.trace_dir, "/tmp/");
    EXPECT_EQ(p.command_line, "python train.py --pid 50");
    EXPECT_EQ(p.parent_command_line, "python train.py --pid 40");
}

TEST(LiveJobs, GroupsRanksByTheirLauncher) {
    FakeMachine machine;
    for (int pid : {60, 61})
        machine.environments[pid] = {{"TORCHELASTIC_RUN_ID", "abc"},
                                     {"RANK", std::to_string(pid - 60)},
                                     {"WORLD_SIZE", "2"},
                                     {"KINETO_ONDEMAND_TRACE_DIR", "/scratch/traces"}};
    machine.environments[70] = {{"SLURM_JOB_ID", "9001"}};
    LiveJobs jobs(settingsFor(machine));
    const auto t0 = Clock::now();
    for (int pid : {61, 60, 70})
        jobs.receive(poll(pid), t0);
    const auto list = jobs.processes();
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0].job, "slurm 9001");
    EXPECT_EQ(list[1].job, "torchrun abc");
    EXPECT_EQ(list[1].rank, 0);
    EXPECT_EQ(list[2].rank, 1);
    EXPECT_EQ(list[2].world_size, 2);
    EXPECT_EQ(list[2].trace_dir, "/scratch/traces/");
}

TEST(LiveJobs, TraceHandedAtTheNextPollWrittenAndMoved) {
    FakeMachine machine;
    machine.alive = {80};
    const fs::path kineto_dir = freshDir("kineto");
    const fs::path out = freshDir("out");
    machine.environments[80] = {{"KINETO_ONDEMAND_TRACE_DIR", kineto_dir.string()}};
    LiveJobs::Settings settings = settingsFor(machine);
    settings.uid = ::getuid(); // the moved file must be this user's
    LiveJobs jobs(settings);
    const auto t0 = Clock::now();
    auto own = [&](Datagram d) {
        d.credentials->uid = ::getuid();
        return d;
    };
    jobs.receive(own(poll(80)), t0);
    std::string error;
    TraceRequest request;
    request.iterations = 3;
    const int id = jobs.trace({80, ""}, request, out.string(), t0, error);
    ASSERT_NE(id, 0) << error;
    EXPECT_EQ(jobs.trace({80, ""}, request, out.string(), t0, error), 0);
    EXPECT_EQ(error, "pid 80 is already being traced");
    EXPECT_EQ(jobs.ticket(id)->processes[0].phase, TracePhase::WaitingForPoll);
    // Busy with its own profiler: nothing handed, and said.
    EXPECT_EQ(configIn(jobs.receive(own(poll(80, {1}, 0)), t0 + 1s)), "");
    EXPECT_NE(jobs.ticket(id)->processes[0].message.find("busy"), std::string::npos);
    const std::string config = configIn(jobs.receive(own(poll(80)), t0 + 5s));
    EXPECT_NE(config.find("ACTIVITIES_ITERATIONS=4\n"), std::string::npos);
    const ProcessTrace handed = jobs.ticket(id)->processes[0];
    EXPECT_EQ(handed.phase, TracePhase::Handed);
    EXPECT_EQ(config.find("ACTIVITIES_LOG_FILE=" + handed.log_file + "\n"), 0u);
    EXPECT_EQ(handed.log_file.rfind(kineto_dir.string() + "/trainscope_", 0), 0u);
    // Once handed, the config is not handed again.
    EXPECT_EQ(configIn(jobs.receive(own(poll(80, {1}, 0)), t0 + 6s)), "");
    EXPECT_EQ(jobs.ticket(id)->processes[0].phase, TracePhase::Tracing);
    jobs.tick(t0 + 7s);
    EXPECT_EQ(jobs.ticket(id)->processes[0].phase, TracePhase::Tracing);
    writeTrace(handed.written, "{\"traceEvents\": [");
    jobs.tick(t0 + 8s);
    EXPECT_EQ(jobs.ticket(id)->processes[0].phase, TracePhase::Tracing) << "not whole yet";
    writeTrace(handed.written);
    jobs.tick(t0 + 9s);
    const TraceTicket done = *jobs.ticket(id);
    ASSERT_TRUE(done.succeeded()) << done.processes[0].message;
    EXPECT_EQ(fs::path(done.processes[0].path).parent_path(), out);
    EXPECT_TRUE(fs::exists(done.processes[0].path));
    EXPECT_FALSE(fs::exists(handed.written));
}

TEST(LiveJobs, AJobTracesEveryRankIntoARankFolder) {
    FakeMachine machine;
    machine.alive = {90, 91};
    const fs::path kineto_dir = freshDir("kineto_job");
    const fs::path out = freshDir("out_job");
    for (int pid : {90, 91})
        machine.environments[pid] = {{"TORCHELASTIC_RUN_ID", "r1"},
                                     {"RANK", std::to_string(pid - 90)},
                                     {"WORLD_SIZE", "2"},
                                     {"KINETO_ONDEMAND_TRACE_DIR", kineto_dir.string()}};
    LiveJobs::Settings settings = settingsFor(machine);
    settings.uid = ::getuid();
    LiveJobs jobs(settings);
    const auto t0 = Clock::now();
    for (int pid : {90, 91})
        jobs.receive(poll(pid, {85, 1}, kConfigActivities, ::getuid()), t0);
    std::string error;
    // By the launcher's pid: every process it is an ancestor of.
    const int id = jobs.trace({85, ""}, TraceRequest{}, out.string(), t0, error);
    ASSERT_NE(id, 0) << error;
    ASSERT_EQ(jobs.ticket(id)->processes.size(), 2u);
    EXPECT_EQ(jobs.ticket(id)->job, "torchrun r1");
    for (int pid : {90, 91}) {
        const std::string config =
            configIn(jobs.receive(poll(pid, {85, 1}, kConfigActivities, ::getuid()), t0 + 2s));
        EXPECT_NE(config.find("ROUNDUP=100\n"), std::string::npos);
    }
    const TraceTicket asked = *jobs.ticket(id);
    for (const ProcessTrace& trace : asked.processes)
        writeTrace(trace.written);
    jobs.tick(t0 + 3s);
    const TraceTicket done = *jobs.ticket(id);
    ASSERT_TRUE(done.succeeded()) << done.processes[0].message << "; " << done.processes[1].message;
    EXPECT_EQ(fs::path(done.processes[0].path).filename(), "rank0.pt.trace.json");
    EXPECT_EQ(fs::path(done.processes[1].path).filename(), "rank1.pt.trace.json");
    EXPECT_EQ(fs::path(done.processes[1].path).parent_path().filename().string().substr(15),
              "_torchrun-r1");
}

TEST(LiveJobs, GivesUpSayingWhy) {
    FakeMachine machine;
    machine.alive = {100, 101, 102};
    LiveJobs jobs(settingsFor(machine));
    const auto t0 = Clock::now();
    for (int pid : {100, 101, 102})
        jobs.receive(poll(pid), t0);
    std::string error;
    EXPECT_EQ(jobs.trace({555, ""}, TraceRequest{}, "/nowhere", t0, error), 0);
    EXPECT_EQ(error, "neither pid 555 nor a child of it has polled");
    const int exits_waiting = jobs.trace({100, ""}, TraceRequest{}, "/nowhere", t0, error);
    const int never_polls = jobs.trace({101, ""}, TraceRequest{}, "/nowhere", t0, error);
    const int exits_tracing = jobs.trace({102, ""}, TraceRequest{}, "/nowhere", t0, error);
    jobs.receive(poll(102), t0 + 1s);
    machine.alive = {101};
    jobs.tick(t0 + 2s);
    EXPECT_EQ(jobs.ticket(exits_waiting)->processes[0].message, "it exited before it polled again");
    EXPECT_NE(jobs.ticket(exits_tracing)->processes[0].message.find("exited while being traced"),
              std::string::npos);
    EXPECT_FALSE(jobs.ticket(never_polls)->finished());
    jobs.tick(t0 + 21s);
    EXPECT_EQ(jobs.ticket(never_polls)->processes[0].message, "it did not poll in 21 s");
    // Forgotten a minute after their last poll.
    jobs.tick(t0 + 62s);
    EXPECT_TRUE(jobs.processes().empty());
}

TEST(LiveJobs, ALaunchersPidTracesItsRanksNotItself) {
    FakeMachine machine;
    machine.alive = {200, 201, 202, 300, 301};
    for (int pid : {201, 202})
        machine.environments[pid] = {{"TORCHELASTIC_RUN_ID", "x"},
                                     {"RANK", std::to_string(pid - 201)}};
    LiveJobs jobs(settingsFor(machine));
    const auto t0 = Clock::now();
    jobs.receive(poll(200, {1}), t0); // torchrun's agent imports torch and polls
    jobs.receive(poll(201, {200, 1}), t0);
    jobs.receive(poll(202, {200, 1}), t0);
    jobs.receive(poll(300, {1}), t0); // a trainer and its spawned DataLoader worker
    jobs.receive(poll(301, {300, 1}), t0);
    std::string error;
    const int ranks = jobs.trace({200, ""}, TraceRequest{}, "/out", t0, error);
    ASSERT_EQ(jobs.ticket(ranks)->processes.size(), 2u);
    EXPECT_EQ(jobs.ticket(ranks)->processes[0].pid, 201);
    EXPECT_EQ(jobs.ticket(ranks)->processes[1].pid, 202);
    const int trainer = jobs.trace({300, ""}, TraceRequest{}, "/out", t0, error);
    ASSERT_EQ(jobs.ticket(trainer)->processes.size(), 1u);
    EXPECT_EQ(jobs.ticket(trainer)->processes[0].pid, 300);
}

TEST(LiveJobs, TwoTracesAskedInOneSecondGoToTwoFiles) {
    FakeMachine machine;
    machine.alive = {400};
    const fs::path out = freshDir("out_twice");
    LiveJobs jobs(settingsFor(machine));
    const auto t0 = Clock::now();
    jobs.receive(poll(400), t0);
    std::string error;
    const int first = jobs.trace({400, ""}, TraceRequest{}, out.string(), t0, error);
    std::ofstream(jobs.ticket(first)->output) << "{}";
    jobs.receive(poll(400, {1}, 0), t0); // keeps it busy: the first stays unfinished
    TraceTicket second_ticket;
    {
        LiveJobs other(settingsFor(machine));
        other.receive(poll(400), t0);
        const int second = other.trace({400, ""}, TraceRequest{}, out.string(), t0, error);
        second_ticket = *other.ticket(second);
    }
    const std::string first_name = fs::path(jobs.ticket(first)->output).filename().string();
    const std::string second_name = fs::path(second_ticket.output).filename().string();
    if (jobs.ticket(first)->stamp == second_ticket.stamp)
        EXPECT_EQ(second_name, second_ticket.stamp + "-2_pid400.pt.trace.json");
    EXPECT_NE(first_name, second_name);
}
