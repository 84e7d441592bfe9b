#!/usr/bin/env python3
"""The Python reference of bench_trace_import: what the TensorBoard profiler
plugin and Holistic Trace Analysis do first with a Kineto trace, json.load of
the whole file and one aggregation pass over its events:

- per (name, category): count and total duration;
- per ProfilerStep: total duration by the plugin's categories (Kernel, Memcpy,
  Memset, Runtime, DataLoader, CPU Exec, Other), each event counted in the step
  its start falls in. Sums of durations: the plugin's split also resolves
  overlaps, which would only add time here.

Prints one JSON line: its phase times (load_s, aggregate_s) and the counts,
"events" counted as Trainscope counts them (complete events with a name and a
ts; python_function frames and Trainscope's own step marks aside).

    trace_import_reference.py FILE [--print-steps]
"""
import bisect
import gzip
import json
import sys
import time

STEP_PREFIX = "ProfilerStep#"
RUNTIME = ("cuda_runtime", "cuda_driver", "Runtime")


def bucket(cat, name):
    if cat == "kernel":
        return "Kernel"
    if cat == "gpu_memcpy":
        return "Memcpy"
    if cat == "gpu_memset":
        return "Memset"
    if cat in RUNTIME:
        return "Runtime"
    if name.startswith("enumerate(DataLoader)") or name.startswith("enumerate(DataPipe)"):
        return "DataLoader"
    if cat in ("cpu_op", "user_annotation", "Operator"):
        return "CPU Exec"
    return "Other"


def aggregate(events):
    steps = sorted(
        (e["ts"], e["ts"] + e.get("dur", 0), e["name"])
        for e in events
        if e.get("ph") == "X" and str(e.get("name", "")).startswith(STEP_PREFIX)
        and e.get("cat") != "gpu_user_annotation" and "ts" in e
    )
    starts = [s[0] for s in steps]
    per_step = [dict() for _ in steps]
    by_name = {}
    counted = 0
    for e in events:
        if e.get("ph") != "X":
            continue
        name = e.get("name")
        ts = e.get("ts")
        cat = e.get("cat", "")
        if not name or ts is None or cat in ("python_function", "trainscope_step"):
            continue
        counted += 1
        dur = e.get("dur", 0)
        totals = by_name.get((name, cat))
        if totals is None:
            by_name[(name, cat)] = [1, dur]
        else:
            totals[0] += 1
            totals[1] += dur
        i = bisect.bisect_right(starts, ts) - 1
        if i >= 0 and ts < steps[i][1] and not name.startswith(STEP_PREFIX):
            split = per_step[i]
            b = bucket(cat, name)
            split[b] = split.get(b, 0) + dur
    return counted, by_name, steps, per_step


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    start = time.perf_counter()
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        data = json.load(f)
    loaded = time.perf_counter()
    events = data["traceEvents"] if isinstance(data, dict) else data
    counted, by_name, steps, per_step = aggregate(events)
    done = time.perf_counter()
    print(json.dumps({
        "load_s": round(loaded - start, 4),
        "aggregate_s": round(done - loaded, 4),
        "events": counted,
        "list_entries": len(events),
        "names": len(by_name),
        "steps": len(steps),
    }))
    if "--print-steps" in sys.argv:
        for (_, _, name), split in zip(steps, per_step):
            print(name, json.dumps(split, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
