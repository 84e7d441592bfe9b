// Data-parallel building blocks on loopback, two ranks as two threads of this
// process: the gradient buckets average exactly what one process computes on
// the concatenated batch, and failures to meet are plain errors.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include <torch/torch.h>

#include "datasets/SeededRandom.h"
#include "distributed/Communicator.h"
#include "distributed/GradientReducer.h"

namespace ts {
namespace {

// No BatchNorm: with it, per-rank batch statistics differ from the whole
// batch's, and no data-parallel scheme equals one process exactly.
struct SmallNetImpl : torch::nn::Module {
    SmallNetImpl() {
        a = register_module("a", torch::nn::Linear(12, 32));
        b = register_module("b", torch::nn::Linear(32, 32));
        c = register_module("c", torch::nn::Linear(32, 5));
    }
    torch::Tensor forward(torch::Tensor x) { return c(torch::relu(b(torch::relu(a(x))))); }
    torch::nn::Linear a{nullptr}, b{nullptr}, c{nullptr};
};
TORCH_MODULE(SmallNet);

DistributedLaunch rankOf(int rank, int world, int port, double timeout_s = 20) {
    DistributedLaunch launch;
    launch.world_size = world;
    launch.rank = rank;
    launch.local_rank = rank;
    launch.local_world_size = world;
    launch.master_port = port;
    launch.store_hosted_by_launcher = true;
    launch.timeout_s = timeout_s;
    return launch;
}

// Runs fn(communicator) on `world` threads, one rank each; returns their results.
template <typename Fn> auto onRanks(int world, Fn fn) {
    RendezvousHost host("127.0.0.1", 0, world, 20);
    using Result = decltype(fn(std::declval<Communicator&>()));
    std::vector<std::future<Result>> futures;
    for (int r = 0; r < world; ++r)
        futures.push_back(std::async(std::launch::async, [&, r] {
            auto comm = Communicator::connect(rankOf(r, world, host.port()));
            return fn(*comm);
        }));
    std::vector<Result> results;
    for (auto& f : futures)
        results.push_back(f.get());
    return results;
}

std::vector<torch::Tensor> gradientsOf(SmallNet& net) {
    std::vector<torch::Tensor> grads;
    for (const auto& p : net->parameters())
        grads.push_back(p.grad().clone());
    return grads;
}

TEST(Distributed, BucketedAllreduceEqualsOneProcessOnTheWholeBatch) {
    torch::manual_seed(3);
    const auto inputs = torch::randn({8, 12});
    const auto labels = torch::randint(0, 5, {8});
    torch::manual_seed(7);
    SmallNet reference;
    torch::nn::functional::cross_entropy(reference(inputs), labels).backward();
    const auto expected = gradientsOf(reference);

    // Built here, one after the other: the ranks' threads would share (and
    // interleave) the global generator.
    std::vector<SmallNet> nets;
    for (int r = 0; r < 2; ++r) {
        torch::manual_seed(7);
        nets.emplace_back();
    }
    // Tiny buckets so the hooks launch several allreduces during backward.
    const auto results = onRanks(2, [&](Communicator& comm) {
        SmallNet net = nets[size_t(comm.rank())];
        GradientReducer reducer(comm, net->parameters(), 512, 2048);
        const auto part = torch::arange(comm.rank(), 8, 2);
        for (int step = 0; step < 2; ++step) { // twice: the hooks re-arm
            for (auto& p : net->parameters())
                p.mutable_grad().reset();
            reducer.beginBackward();
            torch::nn::functional::cross_entropy(net(inputs.index_select(0, part)),
                                                 labels.index_select(0, part))
                .backward();
            const ReduceTiming timing = reducer.finishBackward();
            EXPECT_GT(timing.buckets, 2);
            EXPECT_GE(timing.allreduce_ms, timing.overlapped_ms);
        }
        EXPECT_GT(reducer.bucketLayout().size(), 2u);
        // Reverse registration order: the last layer's bias goes first.
        EXPECT_EQ(reducer.bucketLayout().front().front(), net->parameters().size() - 1);
        return gradientsOf(net);
    });
    for (const auto& grads : results) {
        ASSERT_EQ(grads.size(), expected.size());
        for (size_t i = 0; i < grads.size(); ++i)
            EXPECT_TRUE(torch::allclose(grads[i], expected[i], 1e-5, 1e-6)) << "parameter " << i;
    }
    for (size_t i = 0; i < expected.size(); ++i)
        EXPECT_TRUE(torch::equal(results[0][i], results[1][i])) << "ranks differ at " << i;
}

TEST(Distributed, CollectivesAndChecksums) {
    const auto results = onRanks(2, [](Communicator& comm) {
        auto value = torch::full({3}, double(comm.rank() + 1));
        comm.allreduceSum(value);
        auto mine = torch::full({2}, double(10 * comm.rank()));
        const auto gathered = comm.allgather(mine);
        std::vector<torch::Tensor> from_root{torch::full({4}, double(comm.rank() + 5))};
        comm.broadcast(from_root, 0);
        if (comm.rank() == 0) comm.publish("run_dir", "/tmp/somewhere");
        const std::string dir = comm.lookup("run_dir");
        return std::make_tuple(value.sum().item<double>(), gathered, tensorChecksum(from_root),
                               dir);
    });
    for (const auto& [sum, gathered, checksum, dir] : results) {
        EXPECT_DOUBLE_EQ(sum, 9.0); // (1 + 2) * 3
        EXPECT_TRUE(torch::equal(
            gathered, torch::tensor({{0.0, 0.0}, {10.0, 10.0}}).to(gathered.scalar_type())));
        EXPECT_EQ(dir, "/tmp/somewhere");
    }
    EXPECT_EQ(std::get<2>(results[0]), std::get<2>(results[1]));
    EXPECT_EQ(std::get<2>(results[0]).size(), 16u);
    EXPECT_NE(tensorChecksum({torch::ones({4})}), tensorChecksum({torch::zeros({4})}));
}

TEST(Distributed, BusyPortIsAPlainError) {
    RendezvousHost first("127.0.0.1", 0, 2, 5);
    try {
        RendezvousHost second("127.0.0.1", first.port(), 2, 5);
        FAIL() << "a second store bound the same port";
    } catch (const DistributedError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(std::to_string(first.port())), std::string::npos) << message;
        EXPECT_NE(message.find("busy"), std::string::npos) << message;
        EXPECT_EQ(message.find("Exception raised from"), std::string::npos) << message;
    }
}

TEST(Distributed, ARankThatNeverComesTimesOutWithAPlainError) {
    RendezvousHost host("127.0.0.1", 0, 2, 2);
    try {
        Communicator::connect(rankOf(0, 2, host.port(), 2));
        FAIL() << "rank 0 met a rank that never started";
    } catch (const DistributedError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("rank 0 of 2"), std::string::npos) << message;
        EXPECT_NE(message.find("2 s"), std::string::npos) << message;
    }
}

TEST(ShardOrder, DistributedSamplerSemantics) {
    const std::vector<int64_t> order{9, 8, 7, 6, 5, 4, 3};
    // Padded (training): 7 samples over 3 ranks -> 3 each, wrapping to the start.
    EXPECT_EQ(shardOrder(order, 0, 3, true), (std::vector<int64_t>{9, 6, 3}));
    EXPECT_EQ(shardOrder(order, 1, 3, true), (std::vector<int64_t>{8, 5, 9}));
    EXPECT_EQ(shardOrder(order, 2, 3, true), (std::vector<int64_t>{7, 4, 8}));
    // Unpadded (validation): disjoint, covering each sample once.
    EXPECT_EQ(shardOrder(order, 0, 3, false), (std::vector<int64_t>{9, 6, 3}));
    EXPECT_EQ(shardOrder(order, 1, 3, false), (std::vector<int64_t>{8, 5}));
    EXPECT_EQ(shardOrder(order, 2, 3, false), (std::vector<int64_t>{7, 4}));
    for (int r = 0; r < 3; ++r)
        for (bool pad : {true, false})
            EXPECT_EQ(int64_t(shardOrder(order, r, 3, pad).size()), shardSize(7, r, 3, pad));
    EXPECT_EQ(shardOrder(order, 0, 1, true), order);
}

} // namespace
} // namespace ts
