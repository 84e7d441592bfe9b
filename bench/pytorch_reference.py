#!/usr/bin/python3
"""The same training step as Trainscope's engine, in plain PyTorch eager.

Used by bench/engine_vs_pytorch.sh: ResNet (torchvision, optionally with the
CIFAR stem), synthetic data, SGD with momentum, cross-entropy, optional bf16
autocast, optionally channels-last (model and input, as Trainscope's
channels_last=true) and, on PyTorch 2.x, the model under torch.compile.
Prints one JSON line with the median images/s over measured steps.

Runs under /usr/bin/python3 (PyTorch 1.13 + torchvision) and under PyTorch 2.x
with torchvision's pure-Python models (scripts/torch2.sh's venv with
torchvision 0.29.2 installed --no-deps).
"""
import argparse
import json
import statistics
import sys
import time

import torch
import torchvision


def build(model, stem, classes):
    net = getattr(torchvision.models, model)(num_classes=classes)
    if stem == "cifar":
        net.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        net.maxpool = torch.nn.Identity()
    return net


def measure(net, opt, x, y, precision, warmup, steps, times=None):
    """Images/s of each of `steps` training steps after `warmup` ones; the
    seconds of every step (warm-up included) go to `times` if given."""
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
        if times is not None:
            times.append(dt)
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
    p.add_argument("--channels-last", action="store_true",
                   help="model parameters/buffers and the input in torch.channels_last")
    p.add_argument("--compile", action="store_true",
                   help="the model under torch.compile (PyTorch 2.x); the compile "
                        "time is left out of the rate and printed as compile_s")
    p.add_argument("--compile-mode", default="default")
    p.add_argument("--sgd", choices=["default", "foreach", "fused"], default="default",
                   help="SGD's implementation (PyTorch 2.x): default (the for-loop one "
                        "on CPU), foreach or fused")
    a = p.parse_args()
    if a.compile and not hasattr(torch, "compile"):
        sys.exit(f"pytorch_reference.py: --compile needs PyTorch 2.0 or later "
                 f"(torch.compile); this is torch {torch.__version__}")
    if a.threads:
        torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    net = build(a.model, a.stem, 10).train()
    fmt = torch.channels_last if a.channels_last else torch.contiguous_format
    net = net.to(memory_format=fmt)
    impl = {"foreach": {"foreach": True}, "fused": {"fused": True}}.get(a.sgd, {})
    if impl and not hasattr(torch, "compile"):
        sys.exit(f"pytorch_reference.py: --sgd {a.sgd} needs PyTorch 2.x; "
                 f"this is torch {torch.__version__}")
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4, **impl)
    x = torch.randn(a.batch, 3, a.size, a.size).contiguous(memory_format=fmt)
    y = torch.randint(0, 10, (a.batch,))
    if a.compile:
        # Static shapes: one batch size per process, and no shapes another
        # process left in the cache (automatic dynamic PGO) make it dynamic.
        net = torch.compile(net, mode=a.compile_mode, dynamic=False)
    times = []
    rates = measure(net, opt, x, y, a.precision, a.warmup, a.steps, times)
    result = {"images_per_sec": statistics.median(rates), "torch": torch.__version__,
              "threads": torch.get_num_threads(), "channels_last": a.channels_last,
              "compile": a.compile_mode if a.compile else None, "sgd": a.sgd,
              "first_step_s": times[0]}
    if a.compile:
        # The first step compiles forward and backward (the optimizer stays
        # eager); its time beyond a steady step is the compile time.
        result["compile_s"] = times[0] - a.batch / result["images_per_sec"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
