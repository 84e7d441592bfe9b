#include "distributed/Communicator.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include "distributed/HandedToGloo.h"
#include "util/Hash64.h"

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

std::string firstLine(const std::exception& e) {
    std::string text;
    if (const auto* c10 = dynamic_cast<const c10::Error*>(&e))
        text = c10->what_without_backtrace();
    else
        text = e.what();
    text = text.substr(0, text.find('\n'));
    // gloo prefixes its messages with "[/path/file.cc:123] ".
    if (!text.empty() && text[0] == '[') {
        const auto close = text.find("] ");
        if (close != std::string::npos) text = text.substr(close + 2);
    }
    return text;
}

bool mentions(const std::string& text, const char* what) {
    return text.find(what) != std::string::npos;
}

// A c10d or gloo failure in plain words: what this rank was doing, what that
// most likely means, and c10d's own first line for the curious.
[[noreturn]] void throwPlain(const std::exception& e, const std::string& doing, double timeout_s) {
    const std::string detail = firstLine(e);
    std::string meaning;
    if (mentions(detail, "reset by peer") || mentions(detail, "closed by peer") ||
        mentions(detail, "Broken pipe") || mentions(detail, "Connection refused"))
        meaning = "another rank closed its connection (it exited, failed or was killed)";
    else if (mentions(detail, "imed out") || mentions(detail, "imeout"))
        meaning = "no answer from the other ranks within " + std::to_string(int(timeout_s)) +
                  " s (a rank hung, was stopped, or never started)";
    else if (mentions(detail, "ddress already in use"))
        meaning = "the port is busy (another run or program listens on it; choose another "
                  "--master-port)";
    else
        meaning = "the ranks lost each other";
    throw DistributedError(doing + ": " + meaning + " [" + detail + "]");
}

std::shared_ptr<gloo::transport::Device> makeDevice(const std::string& master_addr) {
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
        return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
    if (master_addr == "localhost" || master_addr.rfind("127.", 0) == 0)
        return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    return c10d::ProcessGroupGloo::createDefaultDevice();
}

std::chrono::milliseconds toMs(double seconds) {
    return std::chrono::milliseconds(int64_t(seconds * 1000));
}

using RetiredWorks = RetiredGlooWorks<c10::intrusive_ptr<c10d::Work>>;

class GlooPending : public PendingCollective {
public:
    GlooPending(c10::intrusive_ptr<c10d::Work> work, double timeout_s,
                std::shared_ptr<RetiredWorks> retired)
        : work_(std::move(work)), timeout_s_(timeout_s), retired_(std::move(retired)) {
        auto done = done_at_;
        work_->getFuture()->addCallback(
            [done](c10::ivalue::Future&) { done->store(Clock::now().time_since_epoch().count()); });
    }
    ~GlooPending() override { retired_->retire(work_); }
    void wait() override {
        try {
            work_->wait();
        } catch (const std::exception& e) {
            throwPlain(e, "gradient allreduce", timeout_s_);
        }
        if (done_at_->load() == 0) done_at_->store(Clock::now().time_since_epoch().count());
    }
    Clock::time_point completedAt() const override {
        return Clock::time_point(Clock::duration(done_at_->load()));
    }

private:
    c10::intrusive_ptr<c10d::Work> work_;
    double timeout_s_;
    std::shared_ptr<RetiredWorks> retired_;
    std::shared_ptr<std::atomic<Clock::rep>> done_at_ =
        std::make_shared<std::atomic<Clock::rep>>(0);
};

class GlooCommunicator : public Communicator {
public:
    explicit GlooCommunicator(const DistributedLaunch& launch) : launch_(launch) {
        const std::string where = launch.master_addr + ":" + std::to_string(launch.master_port);
        try {
            c10d::TCPStoreOptions options;
            options.port = uint16_t(launch.master_port);
            options.isServer = launch.rank == 0 && !launch.store_hosted_by_launcher;
            if (options.isServer) options.numWorkers = size_t(launch.world_size);
            options.waitWorkers = false;
            options.timeout = toMs(launch.timeout_s);
            store_ = c10::make_intrusive<c10d::TCPStore>(launch.master_addr, options);
        } catch (const std::exception& e) {
            throwPlain(e,
                       "rank " + std::to_string(launch.rank) +
                           " could not reach the rendezvous at " + where,
                       launch.timeout_s);
        }
        try {
            auto options = c10d::ProcessGroupGloo::Options::create(toMs(launch.timeout_s));
            options->devices.push_back(makeDevice(launch.master_addr));
            group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, launch.rank,
                                                                 launch.world_size, options);
        } catch (const std::exception& e) {
            throwPlain(e,
                       "rank " + std::to_string(launch.rank) + " of " +
                           std::to_string(launch.world_size) + " could not meet the others at " +
                           where,
                       launch.timeout_s);
        }
    }

    // The process group first: its destructor joins Gloo's worker threads,
    // after which the works kept for ThreadSanitizer may go (HandedToGloo.h).
    ~GlooCommunicator() override {
        group_.reset();
        retired_->releaseAfterWorkersJoined();
    }

    const DistributedLaunch& launch() const override { return launch_; }
    int rank() const override { return launch_.rank; }
    int worldSize() const override { return launch_.world_size; }
    std::string backend() const override { return "gloo"; }

    // One broadcast per dtype and device over the tensors flattened together:
    // a ResNet's ~60 BatchNorm buffers in one message instead of 60 round trips.
    void broadcast(std::vector<at::Tensor>& tensors, int root) override {
        c10d::BroadcastOptions options;
        options.rootRank = root;
        std::vector<bool> done(tensors.size(), false);
        for (size_t first = 0; first < tensors.size(); ++first) {
            if (done[first]) continue;
            std::vector<size_t> group;
            std::vector<at::Tensor> flat_parts;
            for (size_t i = first; i < tensors.size(); ++i) {
                if (done[i] || tensors[i].scalar_type() != tensors[first].scalar_type() ||
                    tensors[i].device() != tensors[first].device())
                    continue;
                done[i] = true;
                group.push_back(i);
                flat_parts.push_back(tensors[i].detach().reshape({-1}));
            }
            std::vector<at::Tensor> one{torch::cat(flat_parts)};
            run("broadcast from rank " + std::to_string(root),
                [&] { return group_->broadcast(one, options); });
            int64_t offset = 0;
            for (size_t i : group) {
                at::Tensor& t = tensors[i];
                const int64_t n = t.numel();
                torch::NoGradGuard no_grad;
                t.copy_(one[0].narrow(0, offset, n).view(t.sizes()));
                offset += n;
            }
        }
    }

    void allreduceSum(at::Tensor& tensor) override {
        std::vector<at::Tensor> one{tensor};
        run("allreduce", [&] { return group_->allreduce(one); });
    }

    at::Tensor allgather(const at::Tensor& tensor) override {
        std::vector<std::vector<at::Tensor>> out(1);
        for (int r = 0; r < launch_.world_size; ++r)
            out[0].push_back(torch::empty_like(tensor));
        std::vector<at::Tensor> in{tensor.contiguous()};
        run("allgather", [&] { return group_->allgather(out, in); });
        return torch::stack(out[0]);
    }

    std::unique_ptr<PendingCollective> allreduceSumAsync(at::Tensor& tensor) override {
        std::vector<at::Tensor> one{tensor};
        try {
            return std::make_unique<GlooPending>(group_->allreduce(one), launch_.timeout_s,
                                                 retired_);
        } catch (const std::exception& e) {
            throwPlain(e, "gradient allreduce", launch_.timeout_s);
        }
    }

    void publish(const std::string& key, const std::string& value) override {
        try {
            store_->set(key, std::vector<uint8_t>(value.begin(), value.end()));
        } catch (const std::exception& e) {
            throwPlain(e, "sharing " + key + " with the other ranks", launch_.timeout_s);
        }
    }

    std::string lookup(const std::string& key) override {
        try {
            const auto bytes = store_->get(key);
            return {bytes.begin(), bytes.end()};
        } catch (const std::exception& e) {
            throwPlain(e, "waiting for " + key + " from rank 0", launch_.timeout_s);
        }
    }

private:
    template <typename Launch> void run(const std::string& doing, Launch&& launch) {
        c10::intrusive_ptr<c10d::Work> work;
        try {
            work = launch();
            work->wait();
        } catch (const std::exception& e) {
            retired_->retire(work);
            throwPlain(e, doing, launch_.timeout_s);
        }
        retired_->retire(work);
    }

    DistributedLaunch launch_;
    c10::intrusive_ptr<c10d::Store> store_;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
    std::shared_ptr<RetiredWorks> retired_ = std::make_shared<RetiredWorks>();
};

} // namespace

std::unique_ptr<Communicator> Communicator::connect(const DistributedLaunch& launch) {
    return std::make_unique<GlooCommunicator>(launch);
}

struct RendezvousHost::Impl {
    c10::intrusive_ptr<c10d::TCPStore> store;
};

RendezvousHost::RendezvousHost(const std::string& addr, int port, int world_size, double timeout_s)
    : impl_(std::make_unique<Impl>()) {
    try {
        c10d::TCPStoreOptions options;
        options.port = uint16_t(port);
        options.isServer = true;
        options.numWorkers = size_t(world_size);
        options.waitWorkers = false;
        options.timeout = toMs(timeout_s);
        impl_->store = c10::make_intrusive<c10d::TCPStore>(addr, options);
    } catch (const std::exception& e) {
        throwPlain(e, "hosting the rendezvous on port " + std::to_string(port), timeout_s);
    }
}

RendezvousHost::~RendezvousHost() = default;

int RendezvousHost::port() const {
    return impl_->store->getPort();
}

std::string tensorChecksum(const std::vector<at::Tensor>& tensors) {
    Hash64 hash;
    for (const auto& t : tensors) {
        const auto cpu = t.detach().to(torch::kCPU).contiguous();
        hash.add(cpu.data_ptr(), size_t(cpu.numel()) * cpu.element_size());
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.digest()));
    return text;
}

} // namespace ts
