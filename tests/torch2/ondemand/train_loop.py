"""A small CPU training loop for the on-demand tests (tests/torch2/ondemand.sh).

Usage: train_loop.py STEPS SLEEP_S [--own-profiler]
Each step: a forward, a backward and an SGD step of a two-layer MLP, then
SLEEP_S seconds of rest (so the job lives long enough to be polled). With
--own-profiler the script runs torch.profiler itself over every step, as a
user's script may: libkineto then polls busy and a daemon's request waits.
"""
import os
import sys
import time

import torch


def main():
    steps, rest = int(sys.argv[1]), float(sys.argv[2])
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))

    def step():
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        time.sleep(rest)

    print("started", os.getpid(), flush=True)
    if "--own-profiler" in sys.argv:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]):
            for _ in range(steps):
                step()
    else:
        for _ in range(steps):
            step()
    print("done", flush=True)


if __name__ == "__main__":
    main()
