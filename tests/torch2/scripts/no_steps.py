"""A script that runs a model forward and backward but never calls optimizer.step() (an
evaluation, or a loop that forgot it): the probe must say that no step was seen.

Usage: no_steps.py [--batches N]
"""
import argparse

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=3)
    args = parser.parse_args()
    model = nn.Linear(8, 2)
    for _ in range(args.batches):
        model(torch.randn(4, 8)).sum().backward()
    print("evaluated", args.batches, "batches", flush=True)


if __name__ == "__main__":
    main()
