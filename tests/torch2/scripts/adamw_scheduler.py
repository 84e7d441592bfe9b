"""AdamW with a learning-rate scheduler (StepLR) on a small MLP and random data, no
DataLoader: the probe's lr figure must follow the scheduler, and its memory lines must
count AdamW's two state tensors per parameter.

Usage: adamw_scheduler.py [--steps N] [--batch B] [--lr LR] [--every K] [--gamma G]
The rate is multiplied by G every K steps.
"""
import argparse

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--gamma", type=float, default=0.5)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 4))
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args.every,
                                                gamma=args.gamma)
    for _ in range(args.steps):
        x, y = torch.randn(args.batch, 32), torch.randn(args.batch, 4)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
    print("done", flush=True)


if __name__ == "__main__":
    main()
