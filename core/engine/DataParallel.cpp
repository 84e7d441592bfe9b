#include "engine/DataParallel.h"
#include "util/HostName.h"

#include <unistd.h>

#include <torch/torch.h>

namespace ts {
namespace {

std::vector<at::Tensor> buffersOf(Model& model) {
    std::vector<at::Tensor> buffers;
    for (auto& [name, tensor] : model.namedBuffers())
        buffers.push_back(tensor);
    return buffers;
}

// A rank's figures as one row of doubles, so one allgather carries them all.
constexpr int kTextChars = 64; // host name, then checksum, one char per double
constexpr int kNumbers = 5;
constexpr int kRowSize = kNumbers + 2 * kTextChars;

void packText(double* out, const std::string& text) {
    for (int i = 0; i < kTextChars; ++i)
        out[i] = i < int(text.size()) ? double(static_cast<unsigned char>(text[size_t(i)])) : 0;
}

std::string unpackText(const double* in) {
    std::string text;
    for (int i = 0; i < kTextChars && in[i] != 0; ++i)
        text += char(int(in[i]));
    return text;
}

} // namespace

DataParallel::DataParallel(std::shared_ptr<Communicator> communicator, Model& model)
    : comm_(std::move(communicator)), model_(model), reducer_(*comm_, model.parameters()) {
    auto parameters = model.parameters();
    comm_->broadcast(parameters, 0);
    syncBuffers();
}

void DataParallel::syncBuffers() {
    auto buffers = buffersOf(model_);
    if (!buffers.empty()) comm_->broadcast(buffers, 0);
}

bool DataParallel::agreeToStop(bool requested) {
    return anyRank(requested);
}

bool DataParallel::anyRank(bool local) {
    auto flag = torch::full({1}, local ? 1.0 : 0.0, torch::kFloat64);
    comm_->allreduceSum(flag);
    return flag.item<double>() > 0;
}

EvalResult DataParallel::reduce(const EvalResult& local) {
    const double n = double(local.samples);
    auto sums =
        torch::tensor({local.loss * n, local.accuracy * n, n, local.seconds}, torch::kFloat64);
    comm_->allreduceSum(sums);
    const auto* v = sums.data_ptr<double>();
    EvalResult global;
    global.samples = int64_t(v[2]);
    global.loss = v[2] > 0 ? v[0] / v[2] : local.loss;
    global.accuracy = v[2] > 0 ? v[1] / v[2] : local.accuracy;
    global.seconds = local.seconds; // the ranks evaluate side by side
    return global;
}

void DataParallel::reduceTotals(double& loss_sum, int64_t& correct, int64_t& samples) {
    auto sums = torch::tensor({loss_sum, double(correct), double(samples)}, torch::kFloat64);
    comm_->allreduceSum(sums);
    const auto* v = sums.data_ptr<double>();
    loss_sum = v[0];
    correct = int64_t(v[1]);
    samples = int64_t(v[2]);
}

DistributedSummary DataParallel::gather(RankSummary own, bool collective) {
    own.rank = comm_->rank();
    own.host = hostName();
    own.param_checksum = tensorChecksum(model_.parameters());
    DistributedSummary summary;
    summary.world_size = comm_->worldSize();
    summary.backend = comm_->backend();
    if (!collective) {
        summary.ranks.push_back(own);
        return summary;
    }
    auto row = torch::zeros({kRowSize}, torch::kFloat64);
    double* r = row.data_ptr<double>();
    r[0] = own.median_step_ms;
    r[1] = own.median_images_per_sec;
    r[2] = own.allreduce_ms_per_step;
    r[3] = own.comm_wait_ms_per_step;
    r[4] = own.overlap_pct;
    packText(r + kNumbers, own.host);
    packText(r + kNumbers + kTextChars, own.param_checksum);
    const auto rows = comm_->allgather(row).contiguous();
    for (int k = 0; k < comm_->worldSize(); ++k) {
        const double* v = rows.data_ptr<double>() + int64_t(k) * kRowSize;
        RankSummary rank;
        rank.rank = k;
        rank.median_step_ms = v[0];
        rank.median_images_per_sec = v[1];
        rank.allreduce_ms_per_step = v[2];
        rank.comm_wait_ms_per_step = v[3];
        rank.overlap_pct = v[4];
        rank.host = unpackText(v + kNumbers);
        rank.param_checksum = unpackText(v + kNumbers + kTextChars);
        summary.ranks.push_back(rank);
    }
    return summary;
}

} // namespace ts
