"""A GAN-shaped loop with two optimizers (a discriminator's then a generator's step() each
iteration): the probe counts one step per iteration, the first optimizer's.

Usage: two_optimizers.py [--steps N] [--batch B]
"""
import argparse

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--batch", type=int, default=8)
    args = parser.parse_args()
    torch.manual_seed(0)
    generator = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
    discriminator = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
    opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
    bce = nn.BCEWithLogitsLoss()
    for _ in range(args.steps):
        real, noise = torch.randn(args.batch, 8), torch.randn(args.batch, 4)
        fake = generator(noise)
        loss_d = (bce(discriminator(real), torch.ones(args.batch, 1))
                  + bce(discriminator(fake.detach()), torch.zeros(args.batch, 1)))
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
        loss_g = bce(discriminator(fake), torch.ones(args.batch, 1))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
    print("done", flush=True)


if __name__ == "__main__":
    main()
