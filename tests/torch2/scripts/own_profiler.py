"""A script that runs torch.profiler itself, on its own schedule, and writes its own trace:
under the probe, its profiler must keep working (its trace written where it says) and the
probe must say that Trainscope's schedule was not applied.

Usage: own_profiler.py TRACE_PATH [--steps N]
"""
import argparse

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, schedule


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace_path")
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(8, 32), torch.randint(0, 10, (8,))
    with profile(activities=[ProfilerActivity.CPU],
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
                 on_trace_ready=lambda prof: prof.export_chrome_trace(args.trace_path)) as prof:
        for _ in range(args.steps):
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            prof.step()
    print("done", flush=True)


if __name__ == "__main__":
    main()
