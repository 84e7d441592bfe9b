"""A map-style Dataset read through a DataLoader with two worker processes, each sample a
little slow to make: the probe must see time waiting for batches (data_ms), the batch size
and, with --epochs 2, two epochs (the workers start again for the second pass).

Usage: loader_workers.py [--steps N] [--batch B] [--epochs E] [--sample-ms MS]
"""
import argparse
import time

import torch
from torch import nn


class SlowSquares(torch.utils.data.Dataset):
    """Random vectors and their squared norm, each taking `sample_ms` to produce."""

    def __init__(self, size, sample_ms):
        self.size, self.sample_s = size, sample_ms / 1000

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        time.sleep(self.sample_s)
        generator = torch.Generator().manual_seed(index)
        x = torch.randn(16, generator=generator)
        return x, (x * x).sum(dim=0, keepdim=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6, help="batches per epoch")
    parser.add_argument("--batch", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--sample-ms", type=float, default=4.0)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    loader = torch.utils.data.DataLoader(SlowSquares(args.steps * args.batch, args.sample_ms),
                                         batch_size=args.batch, num_workers=2)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    for _ in range(args.epochs):
        for x, y in loader:
            loss = nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print("done", flush=True)


if __name__ == "__main__":
    main()
