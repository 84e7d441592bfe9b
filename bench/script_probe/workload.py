"""The training script of bench/script_probe/overhead.py: an MLP sized by --width on
random data read through a DataLoader, timing its own steps (between the ends of two
iterations of its loop) and writing them to --out as JSON: {"wall": [s...], "cpu": [s...]},
wall-clock and the process's CPU time (one torch thread: a busy machine's preemptions are
in the wall-clock time only).

Usage: workload.py --out TIMES.json [--steps N] [--width W] [--batch B] [--sleep-ms MS]
                   [--profile-by-hand TRACE_DIR --wait W --warmup W --active A --repeat R]
--sleep-ms adds a sleep to each step (a step that waits, as for a GPU, with little compute).
With --profile-by-hand it runs torch.profiler itself on that schedule, as a user would
write it (prof.step() at the end of each iteration, a Chrome trace per cycle).
"""
import argparse
import json
import os
import time

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--sleep-ms", type=float, default=0.0)
    parser.add_argument("--profile-by-hand", metavar="TRACE_DIR")
    for key, default in (("wait", 5), ("warmup", 2), ("active", 5), ("repeat", 3)):
        parser.add_argument("--" + key, type=int, default=default)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(args.width, args.width), nn.ReLU(),
                          nn.Linear(args.width, args.width), nn.ReLU(),
                          nn.Linear(args.width, 10))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = torch.utils.data.TensorDataset(torch.randn(args.steps * args.batch, args.width),
                                          torch.randint(0, 10, (args.steps * args.batch,)))
    loader = torch.utils.data.DataLoader(data, batch_size=args.batch)
    prof = None
    if args.profile_by_hand:
        cycle = iter(range(1000))
        prof = torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU],
            schedule=torch.profiler.schedule(wait=args.wait, warmup=args.warmup,
                                             active=args.active, repeat=args.repeat),
            on_trace_ready=lambda p: p.export_chrome_trace(
                os.path.join(args.profile_by_hand, f"cycle{next(cycle)}.json")),
            record_shapes=True, profile_memory=True, with_stack=False)
        prof.start()
    wall, cpu = [], []
    last, last_cpu = time.perf_counter(), time.process_time()
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if args.sleep_ms:
            time.sleep(args.sleep_ms / 1e3)
        if prof is not None:
            prof.step()
        now, now_cpu = time.perf_counter(), time.process_time()
        wall.append(now - last)
        cpu.append(now_cpu - last_cpu)
        last, last_cpu = now, now_cpu
    if prof is not None:
        prof.stop()
    with open(args.out, "w") as out:
        json.dump({"wall": wall, "cpu": cpu}, out)


if __name__ == "__main__":
    main()
