#pragma once
// The ranks of a data-parallel run and the collectives between them: c10d's
// TCPStore for the rendezvous and ProcessGroupGloo for the collectives. The
// c10d headers stay in the .cpp; callers see tensors, plain values and one
// error type whose message is plain words (which rank, which address, what
// happened), never c10d's stack frames.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "config/DistributedLaunch.h"

namespace ts {

// The ranks could not meet, or lost each other (a rank died, hung, or the
// network failed). what() says so in plain words.
class DistributedError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One collective in flight. Wait on it from the thread that launched it.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    // Blocks until done; throws DistributedError when it failed or timed out.
    virtual void wait() = 0;
    // When it completed (steady clock), valid after wait().
    virtual std::chrono::steady_clock::time_point completedAt() const = 0;
};

class Communicator {
public:
    // Joins the rendezvous at launch.master_addr:master_port (hosting it when
    // this is rank 0 and no launcher does) and builds the process group. Throws
    // DistributedError naming the address on a busy port, an unreachable
    // master, or ranks that do not all arrive within launch.timeout_s.
    static std::unique_ptr<Communicator> connect(const DistributedLaunch& launch);
    virtual ~Communicator() = default;

    virtual const DistributedLaunch& launch() const = 0;
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;
    virtual std::string backend() const = 0;

    // Blocking collectives, in place. broadcast copies rank `root`'s values
    // into every rank's tensors (any shapes, layouts and dtypes).
    virtual void broadcast(std::vector<at::Tensor>& tensors, int root) = 0;
    virtual void allreduceSum(at::Tensor& tensor) = 0;
    // Every rank's `tensor` (same shape everywhere) stacked along a new first
    // dimension, in rank order.
    virtual at::Tensor allgather(const at::Tensor& tensor) = 0;
    // Sums `tensor` over the ranks without waiting; the tensor must stay alive
    // and untouched until the returned collective is waited on.
    virtual std::unique_ptr<PendingCollective> allreduceSumAsync(at::Tensor& tensor) = 0;

    // Small values shared through the rendezvous store (rank 0 sets, the others
    // wait for the key up to the timeout).
    virtual void publish(const std::string& key, const std::string& value) = 0;
    virtual std::string lookup(const std::string& key) = 0;
};

// Hosts the rendezvous store for ranks this process launches (what torchrun's
// agent does), so the port is bound before any rank starts: port 0 picks a
// free one. Throws DistributedError naming the address when the port is busy.
class RendezvousHost {
public:
    RendezvousHost(const std::string& addr, int port, int world_size, double timeout_s);
    ~RendezvousHost();
    RendezvousHost(const RendezvousHost&) = delete;
    RendezvousHost& operator=(const RendezvousHost&) = delete;
    int port() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A 64-bit digest (hex) of the tensors' values, in order: equal on every rank
// exactly when the ranks hold bitwise equal parameters.
std::string tensorChecksum(const std::vector<at::Tensor>& tensors);

} // namespace ts
