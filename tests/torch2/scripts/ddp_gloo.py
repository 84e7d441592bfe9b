"""DistributedDataParallel over gloo on the CPU, for `torchrun --nproc-per-node 2`: under
the probe each rank reports its own rank and steps, and writes rank-named traces.

Usage: torchrun --nproc-per-node 2 [-m trainscope_probe] ddp_gloo.py [--steps N] [--batch B]
"""
import argparse

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=8)
    args = parser.parse_args()
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(rank)
    torch.set_num_threads(1)
    model = DistributedDataParallel(nn.Sequential(nn.Linear(16, 32), nn.ReLU(),
                                                  nn.Linear(32, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(args.steps):
        x, y = torch.randn(args.batch, 16), torch.randn(args.batch, 1)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    # Neither rank tears its Gloo pairs down while the other may still use
    # them (once, in a clean-clone CI run, rank 1 aborted after its last step).
    dist.barrier()
    dist.destroy_process_group()
    print(f"rank {rank} done", flush=True)


if __name__ == "__main__":
    main()
