// JSON forms of the engine's records (run.json and --json outputs). NaN is
// written as null and read back as NaN.
#include <cmath>
#include <limits>

#include "config/ConfigJson.h"
#include "report/JsonNumbers.h"
#include "report/RunDirectory.h"

namespace ts {
namespace {

using nlohmann::json;

json number(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

double readNumber(const json& j, const char* key) {
    if (!j.contains(key) || j[key].is_null()) return std::numeric_limits<double>::quiet_NaN();
    return j[key].get<double>();
}

} // namespace

json toJson(const PhaseTimes& p) {
    return {{"data_ms", p.data_ms},           {"copy_ms", p.copy_ms},
            {"forward_ms", p.forward_ms},     {"backward_ms", p.backward_ms},
            {"optimizer_ms", p.optimizer_ms}, {"other_ms", p.other_ms}};
}

PhaseTimes phasesFromJson(const json& j) {
    PhaseTimes p;
    p.data_ms = j.value("data_ms", 0.0);
    p.copy_ms = j.value("copy_ms", 0.0);
    p.forward_ms = j.value("forward_ms", 0.0);
    p.backward_ms = j.value("backward_ms", 0.0);
    p.optimizer_ms = j.value("optimizer_ms", 0.0);
    p.other_ms = j.value("other_ms", 0.0);
    return p;
}

json toJson(const MemoryByCategory& m) {
    json j = json::object();
    for (const MemoryCategoryField& field : kMemoryCategoryFields)
        j[field.key] = m.*field.bytes;
    return j;
}

MemoryByCategory memoryFromJson(const json& j) {
    MemoryByCategory m;
    for (const MemoryCategoryField& field : kMemoryCategoryFields)
        m.*field.bytes = intValue(j, field.key, int64_t(0));
    return m;
}

json toJson(const EpochRecord& e) {
    return {{"epoch", e.epoch},
            {"steps", e.steps},
            {"epoch_time_s", e.epoch_time_s},
            {"val_time_s", e.val_time_s},
            {"images_per_sec", e.images_per_sec},
            {"train_loss", number(e.train_loss)},
            {"train_accuracy", number(e.train_accuracy)},
            {"has_val", e.has_val},
            {"val_loss", number(e.val_loss)},
            {"val_accuracy", number(e.val_accuracy)},
            {"lr", e.lr}};
}

EpochRecord epochFromJson(const json& j) {
    EpochRecord e;
    e.epoch = j.at("epoch").get<int>();
    e.steps = intValue(j, "steps", int64_t(0));
    e.epoch_time_s = j.value("epoch_time_s", 0.0);
    e.val_time_s = j.value("val_time_s", 0.0);
    e.images_per_sec = j.value("images_per_sec", 0.0);
    e.train_loss = readNumber(j, "train_loss");
    e.train_accuracy = readNumber(j, "train_accuracy");
    e.has_val = j.value("has_val", false);
    e.val_loss = readNumber(j, "val_loss");
    e.val_accuracy = readNumber(j, "val_accuracy");
    e.lr = j.value("lr", 0.0);
    return e;
}

json toJson(const RunSummary& s) {
    return {{"status", toString(s.status)},
            {"error", s.error},
            {"steps_completed", s.steps_completed},
            {"skipped_steps", s.skipped_steps},
            {"epochs_completed", s.epochs_completed},
            {"total_time_s", s.total_time_s},
            {"median_images_per_sec", s.median_images_per_sec},
            {"median_step_ms", s.median_step_ms},
            {"median_phases", toJson(s.median_phases)},
            {"mean_epoch_time_s", s.mean_epoch_time_s},
            {"final_train_loss", number(s.final_train_loss)},
            {"final_train_accuracy", number(s.final_train_accuracy)},
            {"final_val_loss", number(s.final_val_loss)},
            {"final_val_accuracy", number(s.final_val_accuracy)},
            {"best_val_accuracy", number(s.best_val_accuracy)},
            {"peak_tensor_bytes", s.peak_tensor_bytes},
            {"peak_rss_bytes", s.peak_rss_bytes},
            {"peak_device_bytes", s.peak_device_bytes},
            {"peak_memory", toJson(s.peak_memory)},
            {"median_page_faults", number(s.median_page_faults)}};
}

json toJson(const DistributedSummary& d) {
    json ranks = json::array();
    for (const auto& r : d.ranks)
        ranks.push_back({{"rank", r.rank},
                         {"host", r.host},
                         {"median_step_ms", r.median_step_ms},
                         {"median_images_per_sec", r.median_images_per_sec},
                         {"allreduce_ms_per_step", r.allreduce_ms_per_step},
                         {"comm_wait_ms_per_step", r.comm_wait_ms_per_step},
                         {"overlap_pct", r.overlap_pct},
                         {"param_checksum", r.param_checksum}});
    return {{"world_size", d.world_size}, {"backend", d.backend}, {"ranks", ranks}};
}

DistributedSummary distributedFromJson(const json& j) {
    DistributedSummary d;
    d.world_size = intValue(j, "world_size", 1);
    d.backend = j.value("backend", "");
    for (const auto& r : j.value("ranks", json::array())) {
        RankSummary rank;
        rank.rank = intValue(r, "rank", 0);
        rank.host = r.value("host", "");
        rank.median_step_ms = r.value("median_step_ms", 0.0);
        rank.median_images_per_sec = r.value("median_images_per_sec", 0.0);
        rank.allreduce_ms_per_step = r.value("allreduce_ms_per_step", 0.0);
        rank.comm_wait_ms_per_step = r.value("comm_wait_ms_per_step", 0.0);
        rank.overlap_pct = r.value("overlap_pct", 0.0);
        rank.param_checksum = r.value("param_checksum", "");
        d.ranks.push_back(rank);
    }
    return d;
}

RunSummary summaryFromJson(const json& j) {
    RunSummary s;
    s.status = runStatusFromString(j.value("status", "running"));
    s.error = j.value("error", "");
    s.steps_completed = intValue(j, "steps_completed", int64_t(0));
    s.skipped_steps = intValue(j, "skipped_steps", int64_t(0));
    s.epochs_completed = intValue(j, "epochs_completed", 0);
    s.total_time_s = j.value("total_time_s", 0.0);
    s.median_images_per_sec = j.value("median_images_per_sec", 0.0);
    s.median_step_ms = j.value("median_step_ms", 0.0);
    if (j.contains("median_phases")) s.median_phases = phasesFromJson(j["median_phases"]);
    s.mean_epoch_time_s = j.value("mean_epoch_time_s", 0.0);
    s.final_train_loss = readNumber(j, "final_train_loss");
    s.final_train_accuracy = readNumber(j, "final_train_accuracy");
    s.final_val_loss = readNumber(j, "final_val_loss");
    s.final_val_accuracy = readNumber(j, "final_val_accuracy");
    s.best_val_accuracy = readNumber(j, "best_val_accuracy");
    s.peak_tensor_bytes = intValue(j, "peak_tensor_bytes", int64_t(0));
    s.peak_rss_bytes = intValue(j, "peak_rss_bytes", int64_t(0));
    s.peak_device_bytes = intValue(j, "peak_device_bytes", int64_t(0));
    if (j.contains("peak_memory")) s.peak_memory = memoryFromJson(j["peak_memory"]);
    s.median_page_faults = readNumber(j, "median_page_faults");
    return s;
}

json toJson(const EnvironmentInfo& env) {
    json devices = json::array();
    for (const auto& d : env.cuda_devices)
        devices.push_back(
            {{"index", d.index},
             {"name", d.name},
             {"total_memory", d.total_memory},
             {"capability", std::to_string(d.major) + "." + std::to_string(d.minor)}});
    return {{"trainscope_version", env.trainscope_version},
            {"torch_version", env.torch_version},
            {"hostname", env.hostname},
            {"os", env.os},
            {"compiler", env.compiler},
            {"cpu_model", env.cpu_model},
            {"logical_cores", env.logical_cores},
            {"usable_cores", env.usable_cores},
            {"cpu_features", env.cpu_features},
            {"blas", env.blas},
            {"blas_library", env.blas_library},
            {"reference_blas", env.reference_blas},
            {"onednn", env.onednn},
            {"onednn_version", env.onednn_version},
            {"intra_op_threads", env.intra_op_threads},
            {"inter_op_threads", env.inter_op_threads},
            {"threads_choice", env.threads_choice},
            {"cuda_available", env.cuda_available},
            {"cuda_version", env.cuda_version},
            {"cudnn_version", env.cudnn_version},
            {"cuda_devices", devices},
            {"host_memory_total", env.host_memory_total},
            {"host_memory_available", env.host_memory_available}};
}

EnvironmentInfo environmentFromJson(const json& j) {
    EnvironmentInfo env;
    env.trainscope_version = j.value("trainscope_version", "");
    env.torch_version = j.value("torch_version", "");
    env.hostname = j.value("hostname", "");
    env.os = j.value("os", "");
    env.compiler = j.value("compiler", "");
    env.cpu_model = j.value("cpu_model", "");
    env.logical_cores = intValue(j, "logical_cores", 0);
    env.usable_cores = intValue(j, "usable_cores", 0);
    env.cpu_features = j.value("cpu_features", std::vector<std::string>{});
    env.blas = j.value("blas", "");
    env.blas_library = j.value("blas_library", "");
    env.reference_blas = j.value("reference_blas", false);
    env.onednn = j.value("onednn", false);
    env.onednn_version = j.value("onednn_version", "");
    env.intra_op_threads = intValue(j, "intra_op_threads", 0);
    env.inter_op_threads = intValue(j, "inter_op_threads", 0);
    env.threads_choice = j.value("threads_choice", "");
    env.cuda_available = j.value("cuda_available", false);
    env.cuda_version = j.value("cuda_version", "");
    env.cudnn_version = j.value("cudnn_version", "");
    for (const auto& d : j.value("cuda_devices", json::array())) {
        CudaDeviceInfo device;
        device.index = intValue(d, "index", 0);
        device.name = d.value("name", "");
        device.total_memory = intValue(d, "total_memory", int64_t(0));
        env.cuda_devices.push_back(device);
    }
    env.host_memory_total = intValue(j, "host_memory_total", int64_t(0));
    env.host_memory_available = intValue(j, "host_memory_available", int64_t(0));
    return env;
}

json toJson(const ScriptSource& s) {
    return {{"kind", "python-script"},
            {"script", s.script},
            {"module", s.module},
            {"args", s.args},
            {"cwd", s.cwd},
            {"python", s.python},
            {"python_version", s.python_version},
            {"torch_version", s.torch_version},
            {"device", s.device},
            {"device_name", s.device_name},
            {"world_size", s.world_size},
            {"exit_status", s.exit_status},
            {"exit_code", s.exit_code},
            {"probe_overhead_us_per_step", s.probe_overhead_us_per_step}};
}

ScriptSource scriptSourceFromJson(const json& j) {
    ScriptSource s;
    s.script = j.value("script", "");
    s.module = j.value("module", "");
    s.args = j.value("args", std::vector<std::string>{});
    s.cwd = j.value("cwd", "");
    s.python = j.value("python", "");
    s.python_version = j.value("python_version", "");
    s.torch_version = j.value("torch_version", "");
    s.device = j.value("device", "");
    s.device_name = j.value("device_name", "");
    s.world_size = intValue(j, "world_size", 1);
    s.exit_status = j.value("exit_status", "");
    s.exit_code = intValue(j, "exit_code", 0);
    s.probe_overhead_us_per_step = j.value("probe_overhead_us_per_step", 0.0);
    return s;
}

json toJson(const RunInfo& info) {
    json run = {{"config", configToJson(info.config)},
                {"environment", toJson(info.env)},
                {"train_samples", info.train_samples},
                {"val_samples", info.val_samples},
                {"steps_per_epoch", info.steps_per_epoch},
                {"parameters", info.parameters},
                {"forward_macs", info.forward_macs},
                {"start_epoch", info.start_epoch},
                {"start_global_step", info.start_global_step},
                {"optimizer_implementation", info.optimizer_implementation}};
    if (info.source.present()) run["source"] = toJson(info.source);
    return run;
}

} // namespace ts
