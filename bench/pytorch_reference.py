#!/usr/bin/python3
"""The same training step as Trainscope's engine, in plain PyTorch eager.

Used by bench/engine_vs_pytorch.sh: ResNet (torchvision, optionally with the
CIFAR stem), synthetic data, SGD with momentum, cross-entropy, optional bf16
autocast. Prints one JSON line with the median images/s over measured steps.
"""
import argparse
import json
import statistics
import time

import torch
import torchvision


def build(model, stem, classes):
    net = getattr(torchvision.models, model)(num_classes=classes)
    if stem == "cifar":
        net.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        net.maxpool = torch.nn.Identity()
    return net


def measure(net, opt, x, y, precision, warmup, steps):
    """Images/s of each of `steps` training steps after `warmup` ones."""
    rates = []
    for i in range(warmup + steps):
        t0 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16"):
            out = net(x)
        loss = torch.nn.functional.cross_entropy(out.float(), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)  # as Trainscope (and PyTorch 2.x by default)
        loss.item()
        dt = time.perf_counter() - t0
        if i >= warmup:
            rates.append(x.shape[0] / dt)
    return rates


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="resnet18")
    p.add_argument("--stem", default="cifar")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--size", type=int, default=32)
    p.add_argument("--precision", default="fp32")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--steps", type=int, default=8)
    a = p.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    net = build(a.model, a.stem, 10).train()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
    x = torch.randn(a.batch, 3, a.size, a.size)
    y = torch.randint(0, 10, (a.batch,))
    rates = measure(net, opt, x, y, a.precision, a.warmup, a.steps)
    print(json.dumps({"images_per_sec": statistics.median(rates), "torch": torch.__version__,
                      "threads": torch.get_num_threads()}))


if __name__ == "__main__":
    main()
