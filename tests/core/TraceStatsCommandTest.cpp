// `trace-stats FILE`: the operator table of a trace file in three formats.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "GivenViewOptions.h"
#include "ModelTestSupport.h"
#include "ProfTestSupport.h"
#include "TestPaths.h"
#include "inspect/TraceExportCommand.h"
#include "inspect/TraceIndexCommand.h"
#include "inspect/TraceStatsCommand.h"
#include "report/ViewCatalog.h"
#include "trace/ChromeTraceReader.h"
#include "trace/ChromeTraceWriter.h"

namespace ts {
namespace {

using test::addEvent;

class TraceStatsCommand : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = test::freshTempDir("trace_stats");
        Trace t;
        addEvent(t, "forward", EventKind::Annotation, 0, 1000000);
        addEvent(t, "aten::mm", EventKind::Operator, 100, 400000, 0, 5, "[[8, 16], [16, 4]]");
        addEvent(t, "aten::mm", EventKind::Operator, 500000, 300000, 0, 6, "[[2, 2], [2, 2]]");
        addEvent(t, "MmBackward0", EventKind::Backward, 2000000, 500000, 0, 6);
        addEvent(t, "aten::mm", EventKind::Operator, 2100000, 100000);
        t.finalize();
        writeChromeTraceFile(t, dir_ / "trace.json");
        options_.file = (dir_ / "trace.json").string();
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    void setOption(const std::string& name, const std::string& text) {
        test::setViewOption(options_, name, text);
    }

    int run() {
        out_.str("");
        err_.str("");
        return runTraceStats(options_, out_, err_);
    }

    std::filesystem::path dir_;
    TraceStatsOptions options_;
    std::ostringstream out_, err_;
};

TEST_F(TraceStatsCommand, PrintsTheTextTable) {
    ASSERT_EQ(run(), 0) << err_.str();
    const std::string text = out_.str();
    EXPECT_NE(text.find("trace.json: trainscope, 5 events"), std::string::npos) << text;
    EXPECT_NE(text.find("aten::mm"), std::string::npos);
    EXPECT_NE(text.find("MmBackward0"), std::string::npos);
    EXPECT_NE(text.find("Self CPU time total: 1.500ms"), std::string::npos) << text;
    EXPECT_TRUE(err_.str().empty());
}

TEST_F(TraceStatsCommand, CsvJsonGroupingScopeSortAndLimit) {
    options_.format = "csv";
    setOption("--group-by", "shapes");
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("aten::mm,\"[[8, 16], [16, 4]]\",0,1,400000,"), std::string::npos)
        << out_.str();
    options_.format = "json";
    setOption("--group-by", "name");
    setOption("--scope", "backward");
    setOption("--sort", "calls");
    options_.limit = 1;
    ASSERT_EQ(run(), 0) << err_.str();
    const auto j = nlohmann::json::parse(out_.str());
    ASSERT_EQ(j["rows"].size(), 1u);
    EXPECT_EQ(j["rows"][0]["name"], "MmBackward0"); // ties on calls keep the self-time order
    EXPECT_EQ(j["scope"], "backward");
    EXPECT_TRUE(j["breakdown"].contains("mean"));
}

TEST_F(TraceStatsCommand, BadInputExitsWithTwoAndNamesTheProblem) {
    options_.format = "xml";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--format is 'xml'"), std::string::npos) << err_.str();
    options_.format = "text";
    setOption("--sort", "speed");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("'speed'"), std::string::npos);
    setOption("--sort", "self_cpu");
    setOption("--scope", "sideways");
    EXPECT_EQ(run(), 2);
    setOption("--scope", "all");
    setOption("--group-by", "color");
    EXPECT_EQ(run(), 2);
    setOption("--group-by", "name");
    options_.file = (dir_ / "nope.json").string();
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find(options_.file), std::string::npos);
    EXPECT_TRUE(out_.str().empty());
}

// --view memory on the TensorBoard plugin's memory fixture: devices, the
// per-operator table in JSON, and the options that only this view takes.
TEST_F(TraceStatsCommand, MemoryViewAndItsOptions) {
    options_.file = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/tb_plugin/test_memory_view.json";
    options_.view = "memory";
    options_.format = "json";
    ASSERT_EQ(run(), 0) << err_.str();
    const auto j = nlohmann::json::parse(out_.str());
    ASSERT_EQ(j["devices"].size(), 2u);
    EXPECT_EQ(j["devices"][0]["name"], "CPU");
    EXPECT_EQ(j["devices"][1]["name"], "GPU0");
    EXPECT_FALSE(j["devices"][1]["operators"].empty());

    setOption("--device", "GPU0");
    options_.format = "csv";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("GPU0"), std::string::npos);
    EXPECT_EQ(out_.str().find("\nCPU,"), std::string::npos) << out_.str();

    setOption("--device", "GPU3");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("GPU3"), std::string::npos) << err_.str();
    setOption("--device", "");
    setOption("--start-us", "soon");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--start-us"), std::string::npos) << err_.str();
    EXPECT_TRUE(out_.str().empty());
}

// Trainscope's own trace of a CUDA run: operators timed on the GPU, no kernels.
// Its GPU views say why they count no GPU time; a CPU run's trace and a
// torch.profiler trace get no such note, and JSON stays JSON.
TEST_F(TraceStatsCommand, OwnTraceOfACudaRunSaysWhyItsGpuViewsCountNoGpuTime) {
    const std::filesystem::path own = dir_ / "cuda_run.json";
    std::ofstream(own) << R"({"traceEvents": [
      {"name": "ProfilerStep#1", "ph": "X", "cat": "user_annotation", "ts": 0, "dur": 1000,
       "pid": 1, "tid": 1},
      {"name": "aten::conv2d", "ph": "X", "cat": "cpu_op", "ts": 10, "dur": 400, "pid": 1,
       "tid": 1, "args": {"device_ns": 350000}}]})";
    options_.file = own.string();
    options_.cache = false;
    const std::string note = "records no kernels";
    for (const char* view : {"overview", "kernels", "operators"}) {
        options_.view = view;
        ASSERT_EQ(run(), 0) << view << ": " << err_.str();
        EXPECT_NE(out_.str().find(note), std::string::npos) << view << ": " << out_.str();
    }
    options_.format = "json";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_TRUE(nlohmann::json::accept(out_.str())) << out_.str();

    options_.format = "text";
    for (const std::string& file :
         {(dir_ / "trace.json").string(),
          std::string(TRAINSCOPE_TEST_DATA_DIR) + "/h100/resnet50_bs64_bf16.pt.trace.json.gz"}) {
        options_.file = file;
        ASSERT_EQ(run(), 0) << file << ": " << err_.str();
        EXPECT_EQ(out_.str().find(note), std::string::npos) << file << ": " << out_.str();
    }
}

// --view modules on the TensorBoard plugin's module fixture (the tree in
// JSON, a row per module in CSV) and on a trace without module frames.
TEST_F(TraceStatsCommand, ModulesView) {
    options_.file =
        std::string(TRAINSCOPE_TEST_DATA_DIR) + "/tb_plugin/test_build_module_hierarchy.json";
    options_.view = "modules";
    options_.format = "json";
    ASSERT_EQ(run(), 0) << err_.str();
    const auto j = nlohmann::json::parse(out_.str());
    ASSERT_EQ(j["modules"].size(), 2u);
    EXPECT_EQ(j["modules"][0]["name"], "Conv2");
    EXPECT_EQ(j["modules"][1]["children"][0]["name"], "Linear");
    EXPECT_DOUBLE_EQ(j["modules"][1]["host_self_us"].get<double>(), 447.0);

    options_.format = "csv";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("\nMyModule#0/Linear#1,Linear,1,3,3,186,90,0,0,62\n"),
              std::string::npos)
        << out_.str();

    options_.format = "text";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("\n  Linear "), std::string::npos) << out_.str();

    options_.file = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/tb_plugin/test_self_time.json";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("with_modules=True"), std::string::npos) << err_.str();
    EXPECT_TRUE(out_.str().empty());
}

// --view distributed on the TensorBoard plugin's NCCL fixtures laid out as
// its run folder (worker.<timestamp>.pt.trace.json): JSON, --span, and the
// inputs it refuses.
TEST_F(TraceStatsCommand, DistributedViewOfARunFolder) {
    const std::filesystem::path data = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/tb_plugin";
    const std::filesystem::path run_dir = dir_ / "run";
    std::filesystem::create_directories(run_dir);
    for (int i = 0; i < 2; ++i)
        std::filesystem::copy_file(data / ("test_distributed_nccl_" + std::to_string(i) + ".json"),
                                   run_dir / ("worker" + std::to_string(i) + ".170000" +
                                              std::to_string(i) + ".pt.trace.json"));
    options_.file = run_dir.string();
    options_.view = "distributed";
    options_.format = "json";
    ASSERT_EQ(run(), 0) << err_.str();
    const auto j = nlohmann::json::parse(out_.str());
    ASSERT_EQ(j["ranks"].size(), 2u);
    EXPECT_EQ(j["span_count"], 1);
    EXPECT_EQ(j["ranks"][0]["steps"][0]["synchronizing_us"], 464.0);
    EXPECT_EQ(j["ranks"][1]["operations"][1]["name"], "nccl:all_reduce");
    EXPECT_EQ(j["stragglers"][0]["rank"], 1);

    options_.format = "text";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("Straggler: rank 1"), std::string::npos) << out_.str();

    setOption("--span", "2");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("1 span(s)"), std::string::npos) << err_.str();
    setOption("--span", "");

    // One file: the view needs the ranks' traces.
    options_.file = (data / "test_distributed_nccl_0.json").string();
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("reads a folder of per-rank traces"), std::string::npos)
        << err_.str();
    // Several files given one by one work.
    options_.more_files = {(data / "test_distributed_nccl_1.json").string()};
    ASSERT_EQ(run(), 0) << err_.str();
    // ... but only for the views of a rank folder.
    options_.view = "overview";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("views of a rank folder only"), std::string::npos) << err_.str();
    EXPECT_NE(err_.str().find("'distributed'"), std::string::npos) << err_.str();
}

// HTA's diagnoses of a rank folder: a figure per rank, each equal to the
// rank's file analysed alone; a rank without GPU work is named.
TEST_F(TraceStatsCommand, DiagnosesOfARankFolderPerRank) {
    const std::filesystem::path data =
        std::filesystem::path(TRAINSCOPE_TEST_DATA_DIR) / "distributed_hta";
    options_.format = "json";
    for (const char* view : {"temporal", "idle", "launches", "kernel-types"}) {
        options_.view = view;
        options_.file = data.string();
        ASSERT_EQ(run(), 0) << view << ": " << err_.str();
        const auto folder = nlohmann::json::parse(out_.str());
        ASSERT_EQ(folder["ranks"].size(), 2u) << view;
        EXPECT_EQ(folder["ranks"][0]["rank"], 0) << view;
        EXPECT_EQ(folder["ranks"][1]["rank"], 1) << view;
        options_.file = (data / "rank-1.json.gz").string();
        ASSERT_EQ(run(), 0) << view << ": " << err_.str();
        const auto alone = nlohmann::json::parse(out_.str());
        ASSERT_EQ(alone["ranks"].size(), 1u) << view;
        EXPECT_EQ(folder["ranks"][1], alone["ranks"][0]) << view;
    }
    // Across the ranks: rank 0 communicates most (171,780 us against 133,804).
    options_.view = "kernel-types";
    options_.file = data.string();
    ASSERT_EQ(run(), 0) << err_.str();
    bool found = false;
    const auto spread = nlohmann::json::parse(out_.str())["spread"];
    for (const auto& row : spread)
        if (row["kernel_type"] == "COMMUNICATION") {
            found = true;
            EXPECT_EQ(row["max_rank"], 0);
            EXPECT_EQ(row["max_us"], 171780.0);
            EXPECT_EQ(row["min_rank"], 1);
        }
    EXPECT_TRUE(found);
    // HTA's figure for rank 1 (bench/hta/expected/distributed_hta_temporal.csv).
    options_.view = "temporal";
    options_.file = data.string();
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_EQ(nlohmann::json::parse(out_.str())["ranks"][1]["idle_us"], 328671.0);

    // Past one machine: the summaries trace-index wrote beside the traces,
    // gathered without them, give the same temporal breakdown (HTA's figure).
    const std::filesystem::path nodes = dir_ / "nodes", gathered = dir_ / "gathered";
    std::filesystem::create_directories(nodes);
    std::filesystem::create_directories(gathered);
    for (const char* name : {"rank-0.json.gz", "rank-1.json.gz"})
        std::filesystem::copy_file(data / name, nodes / name);
    TraceIndexOptions index;
    index.inputs = {nodes.string()};
    std::ostringstream index_out, index_err;
    ASSERT_EQ(runTraceIndex(index, index_out, index_err), 0) << index_err.str();
    for (const char* name : {"rank-0.json.gz.tsrank", "rank-1.json.gz.tsrank"})
        std::filesystem::copy_file(nodes / name, gathered / name);
    options_.format = "json";
    const std::string from_traces = out_.str();
    options_.file = gathered.string();
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_EQ(out_.str(), from_traces);

    // A folder without rank 0: its figures are missing, and the text says so.
    const std::filesystem::path lone = dir_ / "lone";
    std::filesystem::create_directories(lone);
    std::filesystem::copy_file(data / "rank-1.json.gz", lone / "rank-1.json.gz");
    options_.file = lone.string();
    options_.format = "text";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("note: rank 0 has no trace in"), std::string::npos) << out_.str();

    // A rank's file cut short is named and left out; the other is diagnosed
    // (each rank is read, analysed and dropped on the pool).
    const std::filesystem::path cut = dir_ / "cut";
    std::filesystem::create_directories(cut);
    std::filesystem::copy_file(data / "rank-0.json.gz", cut / "rank-0.json.gz");
    {
        std::ifstream whole(data / "rank-1.json.gz", std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(whole), {}};
        std::ofstream(cut / "rank-1.json.gz", std::ios::binary)
            << bytes.substr(0, bytes.size() / 2);
    }
    options_.file = cut.string();
    options_.view = "idle";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_NE(out_.str().find("rank-1.json.gz"), std::string::npos) << out_.str();
    EXPECT_NE(out_.str().find("(left out)"), std::string::npos) << out_.str();
    options_.format = "json";
    for (const char* view : {"idle", "launches", "temporal"}) {
        options_.view = view;
        ASSERT_EQ(run(), 0) << view << ": " << err_.str();
        const auto left = nlohmann::json::parse(out_.str());
        ASSERT_EQ(left["ranks"].size(), 1u) << view;
        EXPECT_EQ(left["ranks"][0]["rank"], 0) << view;
    }
    options_.format = "text";

    // Device work without the runtime calls that launched it: what is
    // missing is named.
    std::ifstream in(std::string(TRAINSCOPE_TEST_DATA_DIR) + "/kineto_call_stacks.json");
    nlohmann::json stripped = nlohmann::json::parse(in);
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& e : stripped["traceEvents"])
        if (e.value("cat", "") != "cuda_runtime" && e.value("cat", "") != "ac2g") kept.push_back(e);
    stripped["traceEvents"] = kept;
    std::ofstream(dir_ / "no_launches.json") << stripped.dump();
    options_.file = (dir_ / "no_launches.json").string();
    for (const char* view : {"launches", "queue"}) {
        options_.view = view;
        EXPECT_EQ(run(), 2) << view;
        EXPECT_NE(err_.str().find("no device work is linked to the runtime call"),
                  std::string::npos)
            << err_.str();
    }
    options_.view = "memory-bw";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("no memcpy or memset"), std::string::npos) << err_.str();
    options_.format = "json";
    options_.view = "temporal";

    // A folder whose second rank has no GPU work: exit 2, naming its file.
    const std::filesystem::path folder = dir_ / "ranks";
    std::filesystem::create_directories(folder);
    std::filesystem::copy_file(data / "rank-0.json.gz", folder / "rank-0.json.gz");
    std::filesystem::copy_file(dir_ / "trace.json", folder / "rank-1.json");
    options_.file = folder.string();
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("rank-1.json (rank 1): no kernels"), std::string::npos) << err_.str();
}

// HTA's user annotations and frequent kernel sequences: the options, the
// formats, a rank folder, and what is missing named with the file.
TEST_F(TraceStatsCommand, AnnotationsAndKernelSequences) {
    const std::filesystem::path data(TRAINSCOPE_TEST_DATA_DIR);
    const std::string gpt = (data / "h100" / "gpt_decoder_bf16.pt.trace.json.gz").string();
    options_.file = gpt;
    options_.view = "annotations";
    options_.format = "json";
    ASSERT_EQ(run(), 0) << err_.str();
    auto j = nlohmann::json::parse(out_.str());
    EXPECT_EQ(j["annotations"], "gpu");
    EXPECT_EQ(j["ranks"][0]["annotations"].size(), 3u); // HTA's 3 rows
    setOption("--annotations", "cpu");
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_EQ(nlohmann::json::parse(out_.str())["ranks"][0]["annotations"].size(), 5u);
    setOption("--annotations", "both");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--annotations is 'both'"), std::string::npos) << err_.str();
    setOption("--annotations", "cpu");
    options_.view = "idle";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--view annotations only"), std::string::npos) << err_.str();
    setOption("--annotations", "");

    // No GPU annotations in HTA's AlexNet trace: exit 2, naming the file.
    options_.view = "annotations";
    options_.file = (data / "hta" / "critical_path_alexnet.json.gz").string();
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("critical_path_alexnet.json.gz: no gpu_user_annotation"),
              std::string::npos)
        << err_.str();
    // A rank folder: a breakdown per rank.
    options_.file = (data / "distributed_hta").string();
    setOption("--annotations", "cpu");
    ASSERT_EQ(run(), 0) << err_.str();
    j = nlohmann::json::parse(out_.str());
    ASSERT_EQ(j["ranks"].size(), 2u);
    EXPECT_EQ(j["ranks"][1]["rank"], 1);
    setOption("--annotations", "");

    options_.view = "kernel-sequences";
    options_.file = (data / "kineto_call_stacks.json").string();
    setOption("--operator", "aten::linear");
    setOption("--min-pattern-len", "1");
    ASSERT_EQ(run(), 0) << err_.str();
    j = nlohmann::json::parse(out_.str());
    const auto& first = j["ranks"][0]["sequences"][0];
    EXPECT_EQ(first["pattern"], "aten::linear|ampere_sgemm_32x32_sliced1x4_tn"); // HTA's
    EXPECT_EQ(first["count"], 2);
    EXPECT_DOUBLE_EQ(first["gpu_time_us"].get<double>(), 28);
    options_.format = "csv";
    ASSERT_EQ(run(), 0) << err_.str();
    EXPECT_EQ(out_.str().rfind("sequence,rank,operator,length,count,cpu_time_us", 0), 0u)
        << out_.str();
    options_.format = "text";
    setOption("--min-pattern-len", "3"); // HTA's default: these calls launch one kernel
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("kineto_call_stacks.json: no call whose name contains "
                              "'aten::linear' launched 3 or more kernels"),
              std::string::npos)
        << err_.str();
    setOption("--min-pattern-len", "x");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--min-pattern-len is 'x'"), std::string::npos) << err_.str();
    setOption("--min-pattern-len", "");
    setOption("--operator", "no_such_op");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("no call whose name contains 'no_such_op' launched GPU work"),
              std::string::npos)
        << err_.str();
    options_.view = "kernel-types";
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("--view kernel-sequences only"), std::string::npos) << err_.str();
}

// --view critical-path: JSON with the step, the path and its breakdown (HTA's
// figures for this rank and step), what-if, a rank of a folder, and bad
// input named.
TEST_F(TraceStatsCommand, CriticalPathOfAStepAndWhatIf) {
    const std::filesystem::path data = std::string(TRAINSCOPE_TEST_DATA_DIR) + "/distributed_hta";
    options_.view = "critical-path";
    options_.file = (data / "rank-0.json.gz").string();
    options_.format = "json";
    setOption("--what-if", "category:cpu_bound=0.5");
    ASSERT_EQ(run(), 0) << err_.str();
    nlohmann::json j = nlohmann::json::parse(out_.str());
    EXPECT_EQ(j["window"], "ProfilerStep#551"); // its first
    EXPECT_GT(j["step_duration_us"].get<double>(), j["path_us"].get<double>() * 0.5);
    ASSERT_FALSE(j["breakdown"].empty());
    EXPECT_EQ(j["breakdown"][0]["bound_by"], "cpu_bound");
    EXPECT_FALSE(j["path"].empty());
    EXPECT_EQ(j["what_if"]["what"], "category cpu_bound x0.5");
    EXPECT_GT(j["what_if"]["saved_us"].get<double>(), 0);
    EXPECT_FALSE(j["ranked"].empty());

    options_.file = data.string(); // the folder: rank 1 asked for
    setOption("--rank", "1");
    ASSERT_EQ(run(), 0) << err_.str();
    setOption("--rank", "7");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("Option --rank is 7, but"), std::string::npos) << err_.str();
    EXPECT_NE(err_.str().find("has rank(s) 0, 1 only"), std::string::npos) << err_.str();
    setOption("--rank", "");

    options_.file = (data / "rank-0.json.gz").string();
    setOption("--step", "99");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("step 99 is not in the trace; it has step"), std::string::npos)
        << err_.str();
    setOption("--step", "");
    setOption("--what-if", "kernel:no_such_kernel=0.5");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("no kernel named or containing 'no_such_kernel'"), std::string::npos)
        << err_.str();
    setOption("--what-if", "kernel=0.5");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("is not KIND:NAME=FACTOR"), std::string::npos) << err_.str();
    setOption("--what-if", "");
    options_.view = "idle";
    setOption("--step", "1");
    EXPECT_EQ(run(), 2);
    EXPECT_NE(err_.str().find("Option --step applies to --view area and critical-path only."),
              std::string::npos)
        << err_.str();
}

// The command line: `--view NAME --help` shows that view's options with
// their values and defaults, `--help` every view's; each view option is
// registered from the catalog (a repeatable one repeats) and checked by it,
// in trace-stats and, for the window, in trace-export.
TEST_F(TraceStatsCommand, CommandLineTakesTheViewOptionsFromTheCatalog) {
    const test::CliResult idle = test::runCli("trace-stats --view idle --help");
    EXPECT_EQ(idle.code, 0) << idle.output;
    EXPECT_NE(idle.output.find("Options of --view idle:"), std::string::npos) << idle.output;
    EXPECT_NE(idle.output.find("  --kernel-wait-us US\n"), std::string::npos) << idle.output;
    EXPECT_NE(idle.output.find("microseconds from 0 to 1000000000; default: 30, HTA's"),
              std::string::npos)
        << idle.output;
    EXPECT_EQ(idle.output.find("--group-by"), std::string::npos) << idle.output;

    const test::CliResult all = test::runCli("trace-stats --help");
    EXPECT_EQ(all.code, 0) << all.output;
    for (const views::OptionInfo* o : views::cliOptions())
        EXPECT_NE(all.output.find(o->name), std::string::npos) << o->name;
    EXPECT_NE(all.output.find("options: --kernel-wait-us, --span"), std::string::npos)
        << all.output;

    const std::string trace = " " + options_.file;
    test::CliResult r = test::runCli("trace-stats" + trace + " --view kernels --what-if k:x=1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("Option --what-if applies to --view critical-path only."),
              std::string::npos)
        << r.output;
    r = test::runCli("trace-stats" + trace + " --view queue --max-queue-length 0");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("Option --max-queue-length is '0'; expected a whole number from 1 to "
                            "1000000 (default: 1024, CUDA's and HTA's)."),
              std::string::npos)
        << r.output;
    const std::string hta =
        " " + std::string(TRAINSCOPE_TEST_DATA_DIR) + "/hta/critical_path_cuda_event_sync.json.gz";
    r = test::runCli("trace-stats" + hta +
                     " --no-cache --view critical-path --what-if category:cpu_bound=0.5 "
                     "--what-if kernel:no_such_kernel=0.5");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("no kernel named or containing 'no_such_kernel'"), std::string::npos)
        << r.output;
    r = test::runCli("trace-export" + hta + " --no-cache --critical-path " +
                     (dir_ / "cp.json").string() + " --instance 1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("Option --instance applies to --annotation only."), std::string::npos)
        << r.output;
}

// `trace-export --critical-path`: the trace again, with the path as a row of
// its own that Trainscope reads back; a step that does not exist is exit 2
// and no file.
TEST_F(TraceStatsCommand, ExportsTheCriticalPathAsARow) {
    TraceExportOptions e;
    e.trace.file =
        std::string(TRAINSCOPE_TEST_DATA_DIR) + "/hta/critical_path_cuda_event_sync.json.gz";
    e.trace.cache = false;
    e.critical_path_out = (dir_ / "marked.json").string();
    std::ostringstream out, err;
    ASSERT_EQ(runTraceExport(e, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("critical path of ProfilerStep#"), std::string::npos) << out.str();
    const Trace marked = readChromeTraceFile(e.critical_path_out);
    int32_t lane = -1;
    for (size_t l = 0; l < marked.lanes.size(); ++l)
        if (marked.lanes[l].name.rfind("critical path of ", 0) == 0) lane = int32_t(l);
    ASSERT_GE(lane, 0);
    size_t stretches = 0;
    int64_t total = 0;
    for (const TraceEvent& ev : marked.events)
        if (ev.lane == lane) ++stretches, total += ev.dur_ns;
    EXPECT_GT(stretches, 5u);
    EXPECT_EQ(total, 2411000); // HTA's path: 2,411 us

    test::setViewOption(e.trace, "--step", "99");
    e.critical_path_out = (dir_ / "none.json").string();
    EXPECT_EQ(runTraceExport(e, out, err), 2);
    EXPECT_NE(err.str().find("step 99 is not in the trace"), std::string::npos) << err.str();
    EXPECT_FALSE(std::filesystem::exists(dir_ / "none.json"));
}

} // namespace
} // namespace ts
