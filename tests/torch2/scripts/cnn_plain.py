"""A small CNN on random images with a plain loop and SGD: the probe's first test script
(tests/python/test_probe.py, bench/script_probe/overhead.py).

Usage: cnn_plain.py [--steps N] [--batch B] [--epochs E] [--sleep S] [--size PX]
Each epoch is one pass over a DataLoader of N batches; --sleep adds S seconds to each step
(outside the model), so a step's length can be set without more compute.
"""
import argparse
import time

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8, help="batches per epoch")
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--sleep", type=float, default=0.0)
    parser.add_argument("--size", type=int, default=16, help="image side in pixels")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    images = torch.randn(args.steps * args.batch, 3, args.size, args.size)
    labels = torch.randint(0, 10, (args.steps * args.batch,))
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels),
                                         batch_size=args.batch, shuffle=True)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if args.sleep:
                time.sleep(args.sleep)
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
