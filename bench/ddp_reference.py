#!/usr/bin/python3
"""PyTorch DistributedDataParallel on gloo: the reference for Trainscope's
data-parallel runs (bench/data_parallel_vs_ddp.sh).

The same step as bench/pytorch_reference.py (torchvision ResNet, optional CIFAR
stem, SGD momentum 0.9 + weight decay 5e-4, cross-entropy, optional bf16
autocast) on `--world` local ranks started with torch.multiprocessing, each
with cores / world threads, DDP's default 25 MB buckets and broadcast_buffers.
World 1 is plain PyTorch without DDP (as Trainscope runs one process). Prints
one JSON line: the global images/s (the sum of the ranks' medians over the
measured steps, as Trainscope's run.json), and each rank's median.
"""
import argparse
import json
import os
import statistics

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from pytorch_reference import build, measure


def train(rank, a, results):
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    net = build(a.model, a.stem, 10).train()
    if a.world > 1:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{a.port}", rank=rank,
                                world_size=a.world)
        net = torch.nn.parallel.DistributedDataParallel(net, bucket_cap_mb=25,
                                                        broadcast_buffers=True)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
    torch.manual_seed(rank)  # each rank its own batch, as a sharded loader gives
    x = torch.randn(a.batch, 3, a.size, a.size)
    y = torch.randint(0, 10, (a.batch,))
    rates = measure(net, opt, x, y, a.precision, a.warmup, a.steps)
    results[rank] = statistics.median(rates)
    if a.world > 1:
        dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--model", default="resnet18")
    p.add_argument("--stem", default="cifar")
    p.add_argument("--batch", type=int, default=32, help="per rank")
    p.add_argument("--size", type=int, default=32)
    p.add_argument("--precision", default="fp32")
    p.add_argument("--threads", type=int, default=0, help="per rank; 0 = cores / world")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--port", type=int, default=29561)
    a = p.parse_args()
    if a.threads == 0:
        a.threads = max(1, (os.cpu_count() or 1) // a.world)
    if a.world == 1:
        results = {}
        train(0, a, results)
    else:
        results = mp.Manager().dict()
        mp.spawn(train, args=(a, results), nprocs=a.world, join=True)
    ranks = [results[r] for r in range(a.world)]
    print(json.dumps({"images_per_sec": sum(ranks), "ranks": ranks, "world": a.world,
                      "threads_per_rank": a.threads, "torch": torch.__version__}))


if __name__ == "__main__":
    main()
