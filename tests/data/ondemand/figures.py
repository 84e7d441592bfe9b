#!/usr/bin/env python3
"""Prints the figures tests/torchfree/OnDemandStepsTest.cpp expects of the
on-demand traces record.py recorded, computed from the JSON alone (the
standard library, no torch, no Trainscope):

    python3 tests/data/ondemand/figures.py

Such a trace has no ProfilerStep#N. Its steps run from the end of one
Optimizer.step#... range (cat user_annotation, on a CPU thread) to the end
of the next, numbered 0, 1, ... in trace order; before the first end and
after the last nothing is a step. Per trace: the ranges' ends, each step's
start and end (ns, from the trace's earliest "X" event, as Trainscope
rebases), the Overview's CPU Exec of each step (the union of the cpu_op and
user_annotation ranges of every CPU thread, cut to the step) and Other (the
rest of the step), a few operators' calls in the steps and in the whole
trace (trace-diff's calls per step count those in the steps), the events
outside every step and the collectives of the two ranks of ddp/. Times are read as
decimals: a float holds a 2026 timestamp in nanoseconds to a nanosecond or
two only.
"""
import decimal
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# torch2/memory.pt.trace.json.gz is no on-demand trace, but torch.profiler
# without a schedule writes no ProfilerStep#N either (Torch2FixturesTest.cpp).
FIXTURES = ["iteration_adamw.json.gz", "duration_sgd.json.gz", "ddp/worker0.json.gz",
            "ddp/worker1.json.gz", "../torch2/memory.pt.trace.json.gz"]


def ns(us):
    return int((us * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def load(name):
    with gzip.open(os.path.join(HERE, name), "rt") as f:
        return json.load(f, parse_float=decimal.Decimal)


def union_within(ranges, start, end):
    total, reach = 0, start
    for a, b in sorted(ranges):
        a, b = max(a, reach), min(b, end)
        if b > a:
            total += b - a
            reach = b
    return total


def figures(name):
    events = [e for e in load(name)["traceEvents"]
              if e.get("ph") == "X" and e.get("cat") != "python_function"]
    origin = min(ns(e["ts"]) for e in events)

    def span(e):
        return ns(e["ts"]) - origin, ns(e["ts"] + e["dur"]) - origin

    host = [e for e in events if e.get("cat") in ("cpu_op", "user_annotation")]
    optimizer = sorted(span(e) for e in host if e["name"].startswith("Optimizer.step#"))
    ends = [end for _, end in optimizer]
    steps = list(zip(ends, ends[1:]))
    busy = [span(e) for e in host]
    print(name)
    print("  optimizer steps:", len(optimizer), sorted({e["name"] for e in host
                                                         if e["name"].startswith("Optimizer.step#")}))
    print("  first op starts", min(s for s, _ in busy), "ns; first optimizer step ends", ends[0])
    print("  steps (number, start_ns, end_ns, dur_ns, cpu_exec_ns, other_ns):")
    for k, (start, end) in enumerate(steps):
        cpu = union_within(busy, start, end)
        print("    {%d, %d, %d, %d, %d, %d}," % (k, start, end, end - start, cpu, end - start - cpu))
    before = sum(1 for e in events if span(e)[0] < steps[0][0])
    after = sum(1 for e in events if span(e)[0] >= steps[-1][1])
    for op in ("aten::mm", "aten::addmm", "aten::add_"):
        calls = [span(e)[0] for e in host if e["name"] == op]
        inside = sum(steps[0][0] <= t < steps[-1][1] for t in calls)
        print("  %s: %d calls in the steps (%.2f per step), %d in the trace" %
              (op, inside, inside / len(steps), len(calls)))
    print("  X events:", len(events), "before the first step:", before,
          "from the end of the last:", after, "gloo:all_reduce ranges:",
          sum(e["name"] == "gloo:all_reduce" for e in events))


for fixture in FIXTURES:
    figures(fixture)
