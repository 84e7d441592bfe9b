// What a new user feeds Trainscope by mistake, as a catalogue: every case runs
// the CLI as a user would and must exit 2 with a message naming the file, key
// or value, in plain words (no LibTorch frames, no abort), and leave nothing
// behind (no run directory under runs/). Grouped by what was wrong: flags,
// config keys, data files, weights, traces, run directories, Nsight CSVs.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <torch/version.h>

#include "CliRunner.h"
#include "DataTestFiles.h"
#include "EngineTestSupport.h"
#include "ModelTestSupport.h"
#include "TestPaths.h"

namespace {

namespace fs = std::filesystem;
using ts::data_test::idxImages;
using ts::data_test::idxLabels;
using ts::data_test::writeBytes;

struct BadInput {
    BadInput(std::string a, std::string n, std::string e = "")
        : args(std::move(a)), naming(std::move(n)), env(std::move(e)) {}
    std::string args;   // after trainscope-cli, run in the fixture folder
    std::string naming; // what the message must say
    std::string env;    // e.g. VAR=value before the command
};

const std::string kConfig = "--preset synthetic-smoke --set threads=1"; // evaluate, prune
const std::string kSmoke = kConfig + " --no-progress";                  // run, sweep, ladder

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string gzipped(const std::string& text) {
    const fs::path tmp =
        fs::temp_directory_path() / ("trainscope_catalogue_gz_" + std::to_string(::getpid()));
    writeBytes(tmp, std::vector<uint8_t>(text.begin(), text.end()), /*gzip=*/true);
    std::ifstream in(tmp, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A Fashion-MNIST folder with one file spoiled by `spoil`.
template <typename Spoil> void fashionMnist(const fs::path& dir, Spoil spoil) {
    fs::create_directories(dir);
    auto train_images = idxImages(16, 28, 28);
    auto train_labels = idxLabels(16);
    spoil(train_images, train_labels);
    writeBytes(dir / "train-images-idx3-ubyte", train_images);
    writeBytes(dir / "train-labels-idx1-ubyte", train_labels);
    writeBytes(dir / "t10k-images-idx3-ubyte", idxImages(8, 28, 28));
    writeBytes(dir / "t10k-labels-idx1-ubyte", idxLabels(8));
}

// Every file the catalogue feeds, in one folder; `good` is a real run.
class BadInputCatalogue : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        // One folder per process: ctest runs each test of the suite in its own.
        dir_ = ts::test::freshDir("bad_input_catalogue_" + std::to_string(::getpid()));
        const fs::path& d = dir_;
        fs::create_directories(d / "empty");
        write(d / "notafile", "x");
        write(d / "bad.json", "{ not json");
        write(d / "wrongtype.json", R"({"batch_size": "big"})");
        write(d / "unknown.json", R"({"colour": "red"})");
        write(d / "negepochs.json", R"({"epochs": -1})");
        write(d / "array.json", "[1, 2]");
        write(d / "garbage.pt", std::string(4000, '\x5a'));
        write(d / "text.pt", "hello");
        fashionMnist(d / "fm_trunc", [](auto& images, auto&) { images.resize(1000); });
        fashionMnist(d / "fm_magic", [](auto& images, auto&) { images[2] = 0x12; });
        fashionMnist(d / "fm_count", [](auto&, auto& labels) { labels = idxLabels(12); });
        fashionMnist(d / "fm_gz", [](auto&, auto&) {});
        fs::remove(d / "fm_gz" / "train-images-idx3-ubyte");
        write(d / "fm_gz" / "train-images-idx3-ubyte.gz", std::string(300, '\x7f'));
        for (int i = 1; i <= 5; ++i)
            write(d / "cifar_trunc" / ("data_batch_" + std::to_string(i) + ".bin"),
                  std::string(3073 * 4, '\0'));
        write(d / "cifar_trunc" / "test_batch.bin", std::string(3073 * 2 + 100, '\0'));
        const std::string event =
            R"({"ph": "X", "name": "a", "ts": 1, "dur": 1, "pid": 1, "tid": 1})";
        write(d / "t_ok.json", R"({"traceEvents": [)" + event + "]}");
        write(d / "t_empty.json", "");
        write(d / "t_notjson.json", "hello world");
        write(d / "t_noevents.json", R"({"foo": 1})");
        write(d / "t_numbers.json", "[1, 2, 3]");
        write(d / "t_badts.json",
              R"({"traceEvents": [{"ph": "X", "name": "a", "ts": "soon", "dur": 1}]})");
        write(d / "t_eventsstring.json", R"({"traceEvents": "none"})");
        const std::string gz = gzipped(R"({"traceEvents": [)" + event + "," + event + "]}");
        write(d / "t_trunc.json.gz", gz.substr(0, gz.size() / 2));
        write(d / "t_garbage.json.gz", std::string("\xdc\x01\x02garbage", 10));
        write(d / "t_binary.json", std::string("\x0f\x80\xff", 3));
        write(d / "badrun" / "run.json", "{");
        write(d / "formatless" / "run.json", "{}");
        write(d / "ncu_text.csv", "this is not a csv export\n");
        write(d / "ncu_cols.csv", "\"ID\",\"Kernel Name\"\n\"0\",\"k\"\n");

        // A real run, then copies spoiled one way each.
        const auto good = ts::test::runCli("run " + kSmoke +
                                           " --set synthetic_samples=16 --set image_size=8 "
                                           "--set batch_size=8 --set epochs=1 --out " +
                                           (d / "good").string());
        ASSERT_EQ(good.code, 0) << good.output;
        for (const char* copy : {"badsteps", "badstatus", "badrow", "badcont"})
            fs::copy(d / "good", d / copy, fs::copy_options::recursive);
        std::ifstream steps_in(d / "good" / "steps.csv");
        std::string header, rows, line;
        std::getline(steps_in, header);
        while (std::getline(steps_in, line))
            rows += line + "\n";
        write(d / "badsteps" / "steps.csv", "time,value\n" + rows);
        write(d / "badrow" / "steps.csv", header + "\n" + rows + "1,2,oops\n");
        std::ifstream run_in(d / "good" / "run.json");
        std::string run((std::istreambuf_iterator<char>(run_in)), std::istreambuf_iterator<char>());
        const std::string completed = "\"status\": \"completed\"";
        run.replace(run.find(completed), completed.size(), "\"status\": \"weird\"");
        write(d / "badstatus" / "run.json", run);
        write(d / "badcont" / "run.json", "{");
    }

    static void TearDownTestSuite() {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    // Runs every case; each must exit 2 naming what was wrong in plain words.
    static void expectRefused(const std::vector<BadInput>& cases) {
        for (const auto& c : cases) {
            SCOPED_TRACE("trainscope-cli " + c.args);
            const auto r = ts::test::runShell("cd '" + dir_.string() + "' && " + c.env + " " +
                                              TRAINSCOPE_CLI_PATH + " " + c.args + " </dev/null");
            EXPECT_EQ(r.code, 2) << r.output;
            EXPECT_NE(r.output.find(c.naming), std::string::npos)
                << "expected \"" << c.naming << "\" in:\n"
                << r.output;
            for (const char* internal : {"frame #", "Exception raised from", "terminate called",
                                         "filesystem error:", "Aborted"})
                EXPECT_EQ(r.output.find(internal), std::string::npos) << r.output;
        }
        // Nothing refused left a run, sweep or ladder directory behind.
        const fs::path runs = dir_ / "runs";
        EXPECT_TRUE(!fs::exists(runs) || fs::is_empty(runs));
    }

    static fs::path dir_;
};

fs::path BadInputCatalogue::dir_;

} // namespace

TEST_F(BadInputCatalogue, CommandLineFlags) {
    expectRefused({
        {"run --preset nope", "unknown preset \"nope\""},
        {"run --config missing.json", "missing.json"},
        {"run " + kSmoke + " --set batch_size", "--set batch_size: expected key=value"},
        {"run " + kSmoke + " --nproc-per-node 0", "--nproc-per-node: Value 0"},
        {"run " + kSmoke + " --nproc-per-node 2 --master-port 70000",
         "--master-port = 70000: must be a TCP port"},
        {"run " + kSmoke + " --out notafile", "notafile: cannot create the directory"},
        {"evaluate " + kConfig + " --weights missing.pt", "missing.pt"},
        {"evaluate " + kConfig + " --weights garbage.pt --split validation",
         "--split validation: expected test or train"},
        {"model-info --model resnet99", "resnet99"},
        {"model-info --input-size 0", "Input size 0"},
        {"model-info --stem round", "round"},
        {"sweep " + kSmoke + " --key nope --values 1,2", "sweep key \"nope\""},
        {"sweep " + kSmoke + " --key batch_size --values 8,x", "sweep value \"x\""},
        {"sweep " + kSmoke + " --key processes --values 0", "sweep value \"0\" of processes"},
        {"sweep " + kSmoke + " --values 8 --repeat 0", "--repeat must be at least 1"},
        {"sweep " + kSmoke + " --values 8 --confidence 2", "--confidence must lie between"},
        {"ladder " + kSmoke + " --rounds 1", "--rounds must be at least 2"},
        {"prune " + kConfig + " --weights garbage.pt --amount 1.5", "--amount 1.5"},
        {"prune " + kConfig + " --weights missing.pt", "--weights missing.pt: no such file"},
        {"prune " + kConfig + " --weights garbage.pt --structured --norm 3", "--norm 3"},
        {"compare --out notafile good good", "notafile: cannot create directories"},
        {"trace-stats t_ok.json --format yaml", "--format is 'yaml'"},
        {"trace-cache --bogus", "--bogus"},
    });
}

TEST_F(BadInputCatalogue, ConfigKeys) {
    expectRefused({
        {"run --config bad.json", "bad.json: not valid JSON"},
        {"run --config wrongtype.json", "batch_size = \"big\": expected an integer"},
        {"run --config unknown.json", "colour = \"red\": unknown key"},
        {"run --config negepochs.json", "epochs = -1: must be at least 1"},
        {"run --config array.json", "array.json: an experiment config must be a JSON object"},
        {"run " + kSmoke + " --set batch_size=0", "batch_size = 0"},
        {"run " + kSmoke + " --set lr=-1", "lr = -1"},
        {"run " + kSmoke + " --set model=resnet99", "model = \"resnet99\""},
        {"run " + kSmoke + " --set bogus_key=1", "bogus_key = 1: unknown key"},
        {"run " + kSmoke + " --set precision=fp8", "precision = \"fp8\""},
        {"run " + kSmoke + " --set device=quantum", "device = \"quantum\""},
        {"run " + kSmoke + " --set threads=-3", "threads = -3"},
        {"run " + kSmoke + " --set nonfinite_loss=maybe", "nonfinite_loss = \"maybe\""},
        {"run " + kSmoke + " --set optimizer=adamw2", "optimizer = \"adamw2\""},
        {"run " + kSmoke + " --set epochs=1.5", "epochs = 1.5"},
        {"run " + kSmoke + " --set profile.active=-1", "profile.active = -1"},
        {"run " + kSmoke + " --set profile.bogus=1", "profile.bogus = 1: unknown key"},
        {"run " + kSmoke + " --set dataset=imagenet", "dataset = \"imagenet\""},
        {"run " + kSmoke + " --set dataset=cifar100", "num_classes = 10: too small for cifar100"},
        {"run " + kSmoke + " --set resume=missing.pt",
         "resume = \"missing.pt\": no such checkpoint file or run directory"},
        {"run " + kSmoke + " --set resume=empty", "the directory holds no checkpoint"},
        {"run " + kSmoke + " --set pretrained=missing.pt",
         "pretrained = \"missing.pt\": no such file"},
    });
}

TEST_F(BadInputCatalogue, DataFiles) {
    const std::string fm = "run " + kSmoke + " --set dataset=fashion-mnist --set data_dir=";
    expectRefused({
        {"run " + kSmoke + " --set dataset=cifar10 --set data_dir=/nonexistent",
         "data_dir = \"/nonexistent\": no such directory"},
        {fm + "empty", "empty/train-images-idx3-ubyte"},
        {fm + "fm_trunc", "fm_trunc/train-images-idx3-ubyte' is truncated"},
        {fm + "fm_magic", "magic number 0x00001203"},
        {fm + "fm_count", "holds 12 labels"},
        {fm + "fm_gz", "fm_gz/train-images-idx3-ubyte.gz"},
        {"run " + kSmoke + " --set dataset=cifar10 --set data_dir=cifar_trunc",
         "cifar_trunc/test_batch.bin' has 6246 bytes"},
    });
}

TEST_F(BadInputCatalogue, WeightsAndCheckpoints) {
    expectRefused({
        {"run " + kSmoke + " --set pretrained=garbage.pt", "'garbage.pt' is neither a zip"},
        {"run " + kSmoke + " --set pretrained=text.pt", "'text.pt'"},
        {"run " + kSmoke + " --set model=resnet34 --set pretrained=good/final.pt",
         "Cannot load weights from 'good/final.pt'"},
        {"run " + kSmoke + " --set model=torchscript --set model_path=text.pt", "text.pt"},
        // A module whose code calls an op this LibTorch lacks, as one saved by
        // a newer PyTorch may: the op is named.
        {"run " + kSmoke + " --set model=torchscript --set model_path=" +
             ts::test::modelFixture("newer_op_script.pt").string(),
         "it uses aten::relu_from_pytorch_9, which LibTorch " TORCH_VERSION " does not have"},
        {"evaluate " + kConfig + " --weights garbage.pt", "garbage.pt"},
        {"run " + kSmoke + " --set resume=garbage.pt", "garbage.pt: not a readable checkpoint"},
        {"prune " + kConfig + " --weights text.pt", "text.pt"},
    });
}

TEST_F(BadInputCatalogue, Traces) {
    expectRefused({
        {"trace-stats missing.json", "missing.json: no such file or directory"},
        {"trace-stats t_empty.json", "t_empty.json: the file is empty"},
        {"trace-stats t_notjson.json", "t_notjson.json: not valid JSON at byte 1"},
        {"trace-stats t_noevents.json", "t_noevents.json: not a Chrome trace"},
        {"trace-stats t_numbers.json", "t_numbers.json: no trace events found"},
        {"trace-stats t_badts.json", "a numeric \"ts\""},
        {"trace-stats t_eventsstring.json", "t_eventsstring.json: not a Chrome trace"},
        {"trace-stats t_trunc.json.gz", "t_trunc.json.gz: not a valid gzip file"},
        {"trace-stats t_garbage.json.gz", "last read: '\\xdc"},
        {"trace-stats t_binary.json", "t_binary.json: not valid JSON at byte 1"},
        {"trace-stats empty", "empty: the folder is empty"},
        {"trace-stats good", "good: a run directory without trace.json"},
        {"trace-stats empty --view distributed", "empty: the folder is empty"},
        {"trace-stats t_ok.json --view nope", "Option --view is 'nope'"},
        {"trace-stats t_ok.json", "t_ok.json: this trace (", "TRAINSCOPE_MEMORY_LIMIT=10"},
        {"trace-stats t_ok.json --sort nope", "Unknown sort key 'nope'"},
        {"trace-stats t_ok.json --group-by colour", "Option --group-by is 'colour'"},
        {"trace-diff missing.json t_numbers.json", "missing.json: no such file or directory"},
        {"trace-diff good empty", "good: a run directory without trace.json"},
    });
}

TEST_F(BadInputCatalogue, RunDirectories) {
    expectRefused({
        {"advise empty", "empty/run.json: cannot open"},
        {"advise badrun", "badrun/run.json: not valid JSON"},
        {"advise formatless", "formatless/run.json: not a Trainscope run"},
        {"advise badsteps", "badsteps/steps.csv: unexpected header"},
        {"advise badstatus", "unknown run status \"weird\""},
        {"advise badrow", "badrow/steps.csv:"},
        {"compare good badrun", "badrun/run.json: not valid JSON"},
        {"roofline --run empty", "empty/run.json: cannot open"},
        // Resumed in place, records that cannot be read are not overwritten.
        {"run " + kSmoke +
             " --set synthetic_samples=16 --set image_size=8 --set batch_size=8 --set epochs=2 "
             "--set resume=badcont",
         "badcont/run.json: not valid JSON"},
    });
    std::ifstream in(dir_ / "badcont" / "run.json");
    std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(kept, "{");
}

TEST_F(BadInputCatalogue, NsightComputeCsvs) {
    expectRefused({
        {"roofline --ncu missing.csv", "missing.csv: cannot open"},
        {"roofline --ncu ncu_text.csv", "ncu_text.csv: not an Nsight Compute CSV export"},
        {"roofline --ncu ncu_cols.csv", "ncu_cols.csv: no gpu__time_duration.sum values found"},
        {"roofline --ncu t_numbers.json", "t_numbers.json"},
    });
}
