#!/usr/bin/python3
"""Writes the torch.profiler sample traces checked in next to this script.

usage: torch_profiler_samples.py LEGACY_OUT KINETO_OUT

Profiles training steps of a tiny conv net with record_shapes and
profile_memory. LEGACY_OUT is torch.profiler's own export_chrome_trace of one
step on a build without Kineto (the legacy list form, as Debian's torch 1.13
writes it). KINETO_OUT holds the profiler's raw events of a two-step run
(names, absolute microsecond times, threads, input dims and dtypes, sequence
numbers, [memory] allocations) laid out in the Kineto form ({"traceEvents":
[...]}, "cat": "cpu_op", args "Input Dims", ...) that Kineto-enabled builds
export, since a build without Kineto cannot write that form itself.
"Total Allocated" is the running sum of the recorded allocations.
"""
import json
import sys

import torch
import torch.nn as nn

PID = 4242
USER_SCOPE = 7  # at::RecordScope::USER_SCOPE


def train(steps):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))
    with torch.profiler.profile(record_shapes=True, profile_memory=True) as prof:
        for step in range(steps):
            with torch.autograd.profiler.record_function("ProfilerStep#%d" % step):
                with torch.autograd.profiler.record_function("forward"):
                    loss = nn.functional.cross_entropy(model(x), y)
                with torch.autograd.profiler.record_function("backward"):
                    loss.backward()
                with torch.autograd.profiler.record_function("optimizer"):
                    opt.step()
                    opt.zero_grad()
    return prof


def kineto_events(prof):
    """The profiler's raw events in the layout of Kineto's trace export."""
    events, total = [], 0
    for e in sorted(prof.profiler.kineto_results.events(), key=lambda e: e.start_us()):
        base = {"pid": PID, "tid": e.start_thread_id(), "ts": e.start_us()}
        if e.name() == "[memory]":
            total += e.nbytes()
            events.append(dict(base, ph="i", cat="cpu_instant_event", s="t", name="[memory]",
                               args={"Device Type": 0, "Device Id": -1, "Bytes": e.nbytes(),
                                     "Total Allocated": total, "Total Reserved": 0}))
            continue
        args = {"External id": e.correlation_id()}
        if e.shapes():
            args["Input Dims"] = e.shapes()
            args["Input type"] = e.dtypes()
        if e.sequence_nr() >= 0:
            args["Sequence number"] = e.sequence_nr()
            args["Fwd thread id"] = e.fwd_thread_id()
        cat = "user_annotation" if e.scope() == USER_SCOPE else "cpu_op"
        events.append(dict(base, ph="X", cat=cat, name=e.name(), dur=e.duration_us(),
                           args=args))
    threads = sorted({e["tid"] for e in events})
    events += [{"name": "thread_name", "ph": "M", "pid": PID, "tid": t,
                "args": {"name": "thread %d (python3)" % t}} for t in threads]
    return events


def main():
    legacy_out, kineto_out = sys.argv[1], sys.argv[2]
    train(1).export_chrome_trace(legacy_out)
    trace = {"schemaVersion": 1, "deviceProperties": [], "record_shapes": 1,
             "profile_memory": 1, "traceEvents": kineto_events(train(2)),
             "traceName": "torch_profiler_sample"}
    with open(kineto_out, "w") as f:
        json.dump(trace, f)


if __name__ == "__main__":
    main()
