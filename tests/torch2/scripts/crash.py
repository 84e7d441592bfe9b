"""A script that trains a few steps and then fails with an exception: under the probe the
steps measured are kept, the traceback is printed as python prints it, the exit status is
python's (1) and the probe's bye line carries the error's last lines.

Usage: crash.py [--after K]
"""
import argparse

import torch
from torch import nn


def broken_batch(step):
    raise RuntimeError(f"the data of step {step} is corrupt (a test failure)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=int, default=3, help="steps before the failure")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(args.after + 1):
        x = torch.randn(4, 8) if step < args.after else broken_batch(step)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
