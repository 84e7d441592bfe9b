// The live processes and the traces asked of them as the GUI's Live jobs
// panel shows them (inspect/LiveJobTables.h): the columns, "N s ago", a
// ticket's status through its phases, and the advice when the socket is taken.
#include <gtest/gtest.h>

#include "inspect/LiveJobTables.h"

using namespace ts;
using namespace ts::ondemand;

namespace {

LiveProcess process(int pid, int rank, Clock::time_point last_poll) {
    LiveProcess p;
    p.pid = pid;
    p.job = "torchrun abc";
    p.rank = rank;
    p.world_size = 2;
    p.user = "me";
    p.command_line = "python train.py";
    p.last_poll = last_poll;
    return p;
}

TraceTicket ticketOf(std::vector<TracePhase> phases) {
    TraceTicket ticket;
    ticket.id = 4;
    ticket.job = "torchrun abc";
    ticket.out_dir = "/out";
    ticket.stamp = "20240501-154207";
    ticket.request.iterations = 3;
    ticket.request.shapes = true;
    for (size_t i = 0; i < phases.size(); ++i) {
        ProcessTrace t;
        t.pid = 100 + int(i);
        t.rank = int(i);
        t.phase = phases[i];
        t.message = phases[i] == TracePhase::Failed ? "it exited" : "";
        ticket.processes.push_back(t);
    }
    return ticket;
}

} // namespace

TEST(LiveJobTables, ProcessesWithTheirLastPoll) {
    const auto now = Clock::now();
    const table::TableSpec spec = liveProcessTable(
        {process(812, 0, now - std::chrono::milliseconds(3400)), process(813, -1, now)}, now);
    ASSERT_EQ(spec.rows.size(), 2u);
    EXPECT_EQ(spec.columns.front().key, live_column::kPid);
    EXPECT_EQ(spec.columns.back().key, live_column::kCommand);
    const auto cell = [&spec](size_t row, const char* key) {
        return spec.rows[row][size_t(spec.columnIndex(key))];
    };
    EXPECT_EQ(cell(0, "rank").text, "0/2");
    EXPECT_EQ(cell(1, "rank").text, "-");
    EXPECT_EQ(cell(0, "last_poll_s_ago").text, "3 s ago");
    EXPECT_EQ(cell(0, "last_poll_s_ago").value, 3);
    EXPECT_EQ(cell(1, "profiler_busy").text, "No");
}

TEST(LiveJobTables, ATicketsStatusFollowsItsSlowestProcess) {
    using P = TracePhase;
    EXPECT_EQ(ticketStatus(ticketOf({P::WaitingForPoll, P::Tracing})), "waiting for the next poll");
    EXPECT_EQ(ticketStatus(ticketOf({P::Handed, P::Tracing})), "asked");
    EXPECT_EQ(ticketStatus(ticketOf({P::Written, P::Tracing})), "tracing (1 of 2 written)");
    EXPECT_EQ(ticketStatus(ticketOf({P::Written, P::Written})), "written");
    EXPECT_EQ(ticketStatus(ticketOf({P::Written, P::Failed})), "failed (1 of 2 written)");
    EXPECT_EQ(ticketStatus(ticketOf({P::Failed})), "failed");

    const table::TableSpec spec = traceTicketTable({ticketOf({P::Written, P::Failed})});
    ASSERT_EQ(spec.rows.size(), 1u);
    const auto cell = [&spec](const char* key) {
        return spec.rows[0][size_t(spec.columnIndex(key))].text;
    };
    EXPECT_EQ(cell("asked"), "15:42:07");
    EXPECT_EQ(cell("request"), "3 steps, shapes");
    EXPECT_EQ(cell(live_column::kProgress), "rank 0: written; rank 1: it exited");
    EXPECT_EQ(cell(live_column::kOutput), "/out/20240501-154207_torchrun-abc");
}

TEST(LiveJobTables, ATakenSocketSaysWhatToDo) {
    EXPECT_NE(socketTakenAdvice("dynolog", 77).find("trainscope-cli trace-job PID` asks it"),
              std::string::npos);
    EXPECT_NE(socketTakenAdvice("trainscope", 77).find("close its Live jobs panel"),
              std::string::npos);
    EXPECT_NE(socketTakenAdvice("python3", 77).find("stop it"), std::string::npos);
    EXPECT_EQ(socketTakenAdvice("", 0), "");
    TraceRequest request;
    request.iterations = 0;
    request.duration_ms = 500;
    request.memory = request.modules = true;
    EXPECT_EQ(requestText(request), "500 ms, memory, modules");
}
