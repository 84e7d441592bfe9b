"""A tiny training loop for on-demand traces (run with KINETO_USE_DAEMON=1).

    python train.py [sgd|adamw|ddp] [seconds] [sleep] [width] [batch]

adamw: AdamW with a StepLR scheduler ("Optimizer.step#AdamW.step"); ddp: two
ranks (torch.multiprocessing, Gloo on the CPU) training a
DistributedDataParallel model with SGD, each rank its own process polling
the daemon. The loop runs `seconds`, sleeping `sleep` seconds after each
optimizer step; `width` and `batch` set how long a step computes.
"""
import os
import sys
import tempfile
import time

import torch

kind = sys.argv[1] if len(sys.argv) > 1 else "sgd"
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
width = int(sys.argv[4]) if len(sys.argv) > 4 else 64
batch = int(sys.argv[5]) if len(sys.argv) > 5 else 16


def train(rank=0, store=None):
    torch.manual_seed(rank)
    m = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(),
                            torch.nn.Linear(width, 10))
    if store:
        import torch.distributed as dist
        dist.init_process_group("gloo", init_method="file://" + store, rank=rank, world_size=2)
        m = torch.nn.parallel.DistributedDataParallel(m)
    if kind == "adamw":
        opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    else:
        opt = torch.optim.SGD(m.parameters(), lr=0.01)
        sched = None
    x = torch.randn(batch, width)
    y = torch.randint(0, 10, (batch,))
    t0 = time.time()
    while time.time() - t0 < seconds:
        loss = torch.nn.functional.cross_entropy(m(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched:
            sched.step()
        time.sleep(pause)
    print("done", os.getpid(), flush=True)


if __name__ == "__main__":
    if kind == "ddp":
        import torch.multiprocessing as mp
        with tempfile.TemporaryDirectory() as d:
            mp.spawn(train, args=(os.path.join(d, "store"),), nprocs=2)
    else:
        train()
