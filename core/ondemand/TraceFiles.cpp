#include "ondemand/TraceFiles.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "ondemand/LiveJobs.h"

namespace ts::ondemand {

namespace fs = std::filesystem;

namespace {

// "torchrun 3f2a" -> "torchrun-3f2a": a job name usable in a file name.
std::string slug(const std::string& text) {
    std::string out;
    for (char c : text)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '-';
    return out;
}

std::string processFileName(const ProcessTrace& trace) {
    return (trace.rank >= 0 ? "rank" + std::to_string(trace.rank)
                            : "pid" + std::to_string(trace.pid)) +
           ".pt.trace.json";
}

} // namespace

std::string onDemandTraceDir(const std::map<std::string, std::string>& environment) {
    const auto it = environment.find("KINETO_ONDEMAND_TRACE_DIR");
    std::string dir = it == environment.end() || it->second.empty() ? "/tmp/" : it->second;
    if (dir.back() != '/') dir += '/';
    return dir;
}

bool traceFileComplete(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    const std::streamoff tail = std::min<std::streamoff>(size, 256);
    std::string end(static_cast<size_t>(tail), '\0');
    in.seekg(size - tail);
    in.read(end.data(), tail);
    const size_t last = end.find_last_not_of(" \t\r\n");
    return last != std::string::npos && end[last] == '}';
}

std::string ticketOutput(const TraceTicket& ticket) {
    if (!ticket.output.empty()) return ticket.output;
    const fs::path out(ticket.out_dir);
    if (ticket.processes.size() == 1)
        return (out / (ticket.stamp + "_pid" + std::to_string(ticket.processes.front().pid) +
                       ".pt.trace.json"))
            .string();
    return (out / (ticket.stamp + "_" + slug(ticket.job))).string();
}

std::string unusedOutput(const TraceTicket& ticket) {
    const fs::path first = ticketOutput(ticket);
    std::error_code error;
    if (!fs::exists(first, error)) return first.string();
    // Two traces of one process asked within a second: stamp-2, stamp-3...
    std::string name = first.filename().string();
    const size_t stamp_end = ticket.stamp.size();
    for (int n = 2;; ++n) {
        const fs::path candidate =
            first.parent_path() /
            (name.substr(0, stamp_end) + "-" + std::to_string(n) + name.substr(stamp_end));
        if (!fs::exists(candidate, error)) return candidate.string();
    }
}

std::string traceDestination(const TraceTicket& ticket, const ProcessTrace& trace) {
    if (ticket.processes.size() == 1) return ticketOutput(ticket);
    return (fs::path(ticketOutput(ticket)) / processFileName(trace)).string();
}

bool moveTrace(const std::string& from, const std::string& to, std::string& error) {
    // The folders libkineto writes to (/tmp) are shared: a file another user
    // put where ours was expected is not taken.
    struct stat status {};
    if (::lstat(from.c_str(), &status) != 0 || !S_ISREG(status.st_mode) ||
        status.st_uid != ::getuid()) {
        error = from + " is not a file of this user: not taken";
        return false;
    }
    std::error_code code;
    fs::create_directories(fs::path(to).parent_path(), code);
    if (code) {
        error = fs::path(to).parent_path().string() + ": cannot create the folder (" +
                code.message() + ")";
        return false;
    }
    fs::rename(from, to, code);
    if (!code) return true;
    // Another file system: a copy under a temporary name, renamed when whole.
    const std::string part = to + ".part";
    fs::copy_file(from, part, fs::copy_options::overwrite_existing, code);
    if (!code) fs::rename(part, to, code);
    if (code) {
        fs::remove(part);
        error = to + ": cannot write the trace (" + code.message() + "); it stays at " + from;
        return false;
    }
    fs::remove(from, code);
    return true;
}

void checkAskedTrace(const TraceTicket& ticket, ProcessTrace& trace, bool alive,
                     std::chrono::steady_clock::time_point now,
                     std::chrono::steady_clock::duration write_timeout) {
    if (traceFileComplete(trace.written)) {
        std::string error;
        const std::string destination = traceDestination(ticket, trace);
        std::error_code code;
        const auto modified = fs::last_write_time(trace.written, code);
        if (!code)
            trace.found_after_ms = std::chrono::duration<double, std::milli>(
                                       fs::file_time_type::clock::now() - modified)
                                       .count();
        const bool moved = moveTrace(trace.written, destination, error);
        trace.phase = moved ? TracePhase::Written : TracePhase::Failed;
        trace.path = moved ? destination : std::string();
        trace.message = moved ? "written: " + destination : error;
    } else if (!alive) {
        trace.phase = TracePhase::Failed;
        trace.message = "it exited while being traced (libkineto writes the trace when the "
                        "traced steps end; nothing at " +
                        trace.written + ")";
    } else if (now - trace.handed_at > write_timeout) {
        trace.phase = TracePhase::Failed;
        trace.message =
            "no trace at " + trace.written + " " +
            std::to_string(
                std::chrono::duration_cast<std::chrono::seconds>(now - trace.handed_at).count()) +
            " s after it was asked (does the job still step its optimizer?)";
    }
}

} // namespace ts::ondemand
