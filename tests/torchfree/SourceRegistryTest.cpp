// The source registry (core/sources): every kind of document is recognised
// by its content, whatever it is called; what nothing recognises is named in
// plain words; a command that reads one kind says what another kind is.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "EngineTestSupport.h"
#include "TestPaths.h"
#include "analysis/RankSummaries.h"
#include "report/RunDirectory.h"
#include "sources/OpenDocument.h"
#include "sources/SourceRegistry.h"

namespace fs = std::filesystem;
using namespace ts::sources;

namespace {

fs::path data(const char* name) {
    return fs::path(TRAINSCOPE_TEST_DATA_DIR) / name;
}

std::string kindOf(const fs::path& path) {
    const Recognised found = recognise(path);
    return found.kind ? found.kind->name : "none: " + found.why_not;
}

fs::path writeFile(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// A run directory as the engine leaves it (run.json, steps.csv).
fs::path writeRun(const std::string& name) {
    const fs::path dir = ts::test::freshDir(name);
    ts::RunRecorder recorder(dir);
    ts::RunInfo info;
    info.config.name = "registry";
    recorder.onRunStarted(info);
    ts::RunSummary summary;
    recorder.onRunFinished(summary);
    return dir;
}

} // namespace

TEST(SourceRegistry, RecognisesEachKindByItsContent) {
    EXPECT_EQ(kindOf(data("torch_profiler_sample.json")), "trace");
    EXPECT_EQ(kindOf(data("h100/resnet50_bs64_bf16.pt.trace.json.gz")), "trace");
    EXPECT_EQ(kindOf(data("memory_snapshots/p2_seed1.pickle")), "allocator-snapshot");
    EXPECT_EQ(kindOf(data("hta/memory_timeline.raw.gz")), "memory-timeline");
    EXPECT_EQ(kindOf(data("torch2/memory.raw.json.gz")), "memory-timeline");
    EXPECT_EQ(kindOf(data("distributed_hta")), "rank-folder");
    EXPECT_EQ(kindOf(data("torch2/ddp_gloo")), "rank-folder");
    const fs::path run = writeRun("registry_run");
    EXPECT_EQ(kindOf(run), "run");
    EXPECT_EQ(kindOf(run / "run.json"), "run"); // its run.json stands for it
    EXPECT_EQ(recognise(data("torch_profiler_sample.json")).match, Match::ByContent);
}

// Names mislead: a trace saved as .txt, a snapshot saved as .json.
TEST(SourceRegistry, ContentWinsOverTheName) {
    const fs::path dir = ts::test::freshDir("registry_names");
    std::ifstream trace(data("torch_profiler_sample.json"), std::ios::binary);
    const std::string trace_bytes{std::istreambuf_iterator<char>(trace), {}};
    EXPECT_EQ(kindOf(writeFile(dir / "trace.txt", trace_bytes)), "trace");
    std::ifstream pickle(data("memory_snapshots/p2_seed1.pickle"), std::ios::binary);
    const std::string pickle_bytes{std::istreambuf_iterator<char>(pickle), {}};
    EXPECT_EQ(kindOf(writeFile(dir / "snapshot.json", pickle_bytes)), "allocator-snapshot");
    EXPECT_EQ(kindOf(writeFile(dir / "rows.json", "[[1, 0, 64, 2]]")), "memory-timeline");
}

TEST(SourceRegistry, SaysWhatAPathNothingReadsIs) {
    const fs::path dir = ts::test::freshDir("registry_unknown");
    EXPECT_NE(kindOf(dir / "missing.json").find("no such file or directory"), std::string::npos);
    EXPECT_NE(kindOf(dir).find("the folder is empty"), std::string::npos);
    writeFile(dir / "notes" / "readme.txt", "words");
    EXPECT_NE(
        kindOf(dir / "notes").find("neither a run (it has no run.json) nor a folder of traces"),
        std::string::npos);
    EXPECT_NE(kindOf(writeFile(dir / "empty.bin", "")).find("the file is empty"),
              std::string::npos);
    EXPECT_NE(
        kindOf(writeFile(dir / "model.pt", std::string("PK\x03\x04rest", 8))).find("zip archive"),
        std::string::npos);
    const std::string text = kindOf(writeFile(dir / "notes.txt", "hello world"));
    EXPECT_NE(text.find("it starts with 'hello world'"), std::string::npos) << text;
}

// A file named like a trace that is none is left to the trace reader, which
// says what is wrong with it.
TEST(SourceRegistry, AJsonNameFallsToTheTraceReader) {
    const fs::path dir = ts::test::freshDir("registry_json_name");
    const fs::path broken = writeFile(dir / "cut.json", "{\"traceEvents\": [{\"ph\": \"X\",");
    EXPECT_EQ(kindOf(broken), "trace");
    const fs::path other = writeFile(dir / "config.json", "{\"batch_size\": 3}");
    EXPECT_EQ(kindOf(other), "trace");
    EXPECT_EQ(recognise(other).match, Match::ByName);
    const Document doc = openDocument(other);
    EXPECT_FALSE(doc.ok());
    EXPECT_NE(doc.error.find("config.json"), std::string::npos) << doc.error;
}

TEST(SourceRegistry, ACommandOfOneKindSaysWhatAnotherKindIs) {
    const Recognised snapshot = recognise(data("memory_snapshots/p2_seed1.pickle"));
    try {
        requireKind(snapshot, {ts::views::Input::Trace}, "trace-stats --view kernels");
        FAIL() << "a snapshot is no trace";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("is a PyTorch allocator snapshot"), std::string::npos) << message;
        EXPECT_NE(message.find("trace-stats --view kernels reads a trace"), std::string::npos)
            << message;
    }
    EXPECT_EQ(requireKind(snapshot, {ts::views::Input::Snapshot}, "memory-stats").name,
              std::string("allocator-snapshot"));
}

TEST(SourceRegistry, EveryKindFeedsViewsAndOpensOnOneOfThem) {
    for (const SourceKind& kind : sourceKinds()) {
        EXPECT_FALSE(kind.feeds.empty()) << kind.name;
        const ts::views::ViewInfo* first = ts::views::findView(kind.first_view);
        ASSERT_TRUE(first) << kind.name;
        EXPECT_TRUE(kind.feedsInput(first->input) || (first->input == ts::views::Input::RankFolder))
            << kind.name << " opens on " << kind.first_view;
        // Files and folders are found at a path; streams are made by what runs them.
        EXPECT_EQ(kind.recognise == nullptr, kind.shape == SourceShape::Stream) << kind.name;
        EXPECT_EQ(kind.open == nullptr, kind.shape == SourceShape::Stream) << kind.name;
    }
}

TEST(SourceRegistry, OpensEachKindIntoWhatItsViewsRead) {
    const Document trace = openDocument(data("torch_profiler_sample.json"));
    ASSERT_TRUE(trace.ok()) << trace.error;
    EXPECT_EQ(trace.source->name, std::string("trace"));
    EXPECT_TRUE(trace.provides(ts::views::Input::Trace));
    EXPECT_FALSE(trace.provides(ts::views::Input::Snapshot));
    EXPECT_TRUE(trace.analysis->full && trace.analysis->diagnoses && trace.tracks);

    const Document snapshot = openDocument(data("memory_snapshots/p2_seed1.pickle"));
    ASSERT_TRUE(snapshot.ok()) << snapshot.error;
    EXPECT_TRUE(snapshot.snapshot && !snapshot.trace);
    EXPECT_TRUE(snapshot.provides(ts::views::Input::Snapshot));
    EXPECT_FALSE(snapshot.provides(ts::views::Input::TraceOrRun));

    const Document timeline = openDocument(data("hta/memory_timeline.raw.gz"));
    ASSERT_TRUE(timeline.ok()) << timeline.error;
    EXPECT_TRUE(timeline.categories && timeline.provides(ts::views::Input::MemoryTimeline));

    const Document ranks = openDocument(data("distributed_hta"));
    ASSERT_TRUE(ranks.ok()) << ranks.error;
    EXPECT_TRUE(ranks.distributed && ranks.trace);
    EXPECT_TRUE(ranks.provides(ts::views::Input::RankFolder));

    const fs::path dir = writeRun("registry_open_run");
    const Document run = openDocument(dir / "run.json");
    ASSERT_TRUE(run.ok()) << run.error;
    EXPECT_EQ(run.path, documentPath(dir));
    EXPECT_TRUE(run.run && !run.trace);
    EXPECT_TRUE(run.provides(ts::views::Input::Run));
    EXPECT_FALSE(run.provides(ts::views::Input::Trace));
    EXPECT_EQ(run.title(), "registry (" + dir.filename().string() + ")");
}

// A folder holding one trace is that trace.
TEST(SourceRegistry, AFolderOfOneTraceOpensThatTrace) {
    const fs::path dir = ts::test::freshDir("registry_one_trace");
    fs::copy_file(data("torch_profiler_sample.json"), dir / "only.json");
    const Document doc = openDocument(dir);
    ASSERT_TRUE(doc.ok()) << doc.error;
    EXPECT_EQ(doc.source->name, std::string("trace"));
    EXPECT_TRUE(doc.trace && !doc.distributed);
}

// The rank summaries trace-index wrote on the nodes, gathered without their
// traces: a rank folder, whose Ranks view they fill; the views of one
// trace are not offered (the GUI showed them of a trace it did not have).
TEST(SourceRegistry, AFolderOfRankSummariesAloneOpensAsRanks) {
    const fs::path nodes = ts::test::freshDir("registry_summaries_nodes");
    const fs::path gathered = ts::test::freshDir("registry_summaries_gathered");
    const std::vector<ts::RankSpan> spans = ts::findRankSpans({data("distributed_hta")});
    ASSERT_EQ(spans.size(), 1u);
    for (size_t i = 0; i < spans[0].files.size(); ++i) {
        const fs::path copy = nodes / spans[0].files[i].path.filename();
        fs::copy_file(spans[0].files[i].path, copy);
        ts::RankFile file = spans[0].files[i];
        file.path = copy;
        ts::writeSummaryBeside(file, i, {});
        fs::copy_file(ts::summaryBeside(copy), gathered / ts::summaryBeside(copy).filename());
    }
    EXPECT_EQ(kindOf(gathered), "rank-folder");
    const Document doc = openDocument(gathered);
    ASSERT_TRUE(doc.ok()) << doc.error;
    EXPECT_TRUE(doc.distributed && !doc.trace);
    EXPECT_TRUE(doc.provides(ts::views::Input::RankFolder));
    EXPECT_FALSE(doc.provides(ts::views::Input::TraceOrRanks));
    // A folder of other files is named with what it lacks.
    const fs::path other = ts::test::freshDir("registry_summaries_other");
    writeFile(other / "notes.txt", "hello");
    EXPECT_NE(kindOf(other).find("no *.tsrank summaries"), std::string::npos) << kindOf(other);
}

// A large trace opens with what the Overview and the Timeline show; the
// rest is made when a view needs it.
TEST(SourceRegistry, ALargeTraceLeavesTheFullAnalysisToTheViewsThatNeedIt) {
    OpenRequest request;
    request.defer_views_above = 0;
    const Document doc = openDocument(data("h100/resnet50_bs64_bf16.pt.trace.json.gz"), request);
    ASSERT_TRUE(doc.ok()) << doc.error;
    EXPECT_TRUE(doc.deferred);
    EXPECT_TRUE(doc.analysis->overview && !doc.analysis->full && doc.analysis->launches);
    EXPECT_TRUE(doc.analysis->has(AnalysisNeed::Trace));
    EXPECT_FALSE(doc.analysis->has(AnalysisNeed::Diagnoses));
    const DocumentAnalysis made = completeFor(*doc.trace, *doc.analysis, AnalysisNeed::Memory);
    EXPECT_TRUE(made.full && made.memory && !made.modules);
    doc.analysis->merge(made);
    EXPECT_TRUE(doc.analysis->has(AnalysisNeed::Memory));
    EXPECT_FALSE(doc.analysis->overview); // the full analysis holds the Overview's
}
