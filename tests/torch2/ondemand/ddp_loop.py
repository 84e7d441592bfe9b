"""A two-rank Gloo DistributedDataParallel loop for the on-demand tests, run
by torchrun (tests/torch2/ondemand.sh): every rank steps in lockstep, so a
trace asked of the job at one iteration covers the same steps on each rank.

Usage: torchrun --nproc-per-node 2 ddp_loop.py STEPS SLEEP_S
"""
import sys
import time

import torch
import torch.distributed as dist


def main():
    steps, rest = int(sys.argv[1]), float(sys.argv[2])
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.parallel.DistributedDataParallel(
        torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
    for _ in range(steps):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        time.sleep(rest)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
