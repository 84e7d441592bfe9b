"""Steps of even length (a small model plus a fixed sleep) with one step much slower than
the others: the probe's catch_slow must name that step and trace the steps after it.

Usage: slow_step.py [--steps N] [--slow-at K] [--step-ms MS] [--extra-ms MS]
"""
import argparse
import time

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=34)
    parser.add_argument("--slow-at", type=int, default=28)
    parser.add_argument("--step-ms", type=float, default=20)
    parser.add_argument("--extra-ms", type=float, default=300)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(8, 16), torch.randn(8, 1)
    for step in range(args.steps):
        rest = args.step_ms + (args.extra_ms if step == args.slow_at else 0)
        time.sleep(rest / 1000)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("done", flush=True)


if __name__ == "__main__":
    main()
