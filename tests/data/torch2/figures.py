#!/usr/bin/env python3
"""Prints the figures tests/torchfree/Torch2FixturesTest.cpp expects of the
traces make_traces.py recorded, computed here from the JSON alone (the
standard library, no torch, no Trainscope):

    python3 tests/data/torch2/figures.py

Per trace: its ProfilerStep#s (number, duration in ns), the record_function
ranges, the aten::conv2d / aten::linear calls with their input shapes, the
[memory] instants and the peak of their "Total Allocated", the nn.Module
tree of the python_function frames (with_stack: per class, calls), the
operators under a source frame (with_stack), the DataLoader time per step
(the union of the enumerate(DataLoader)#...__next__ ranges inside each
ProfilerStep#), the distributedInfo and the collectives. For the memory
timeline: the rows, and the peak of the eight categories summed as HTA's
MemoryAnalysis does (one point per distinct time, pre-existing rows at the
first time) beside torch's own plot form's peak (export_memory_timeline to
.json, times coalesced to microseconds).
"""
import collections
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CATEGORIES = ["Parameter", "Optimizer state", "Input", "Temporary", "Activation", "Gradient",
              "Autograd", "Unknown"]


def load(name):
    with gzip.open(os.path.join(HERE, name), "rt") as f:
        return json.load(f)


def ns(us):
    return round(us * 1000)


def union_ns(ranges):
    total, end = 0, None
    for a, b in sorted(ranges):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def module_tree(events):
    """nn.Module frames nested by their Python parent ids: {path: calls}."""
    py = {e["args"]["Python id"]: e for e in events if e.get("cat") == "python_function"}
    calls = collections.Counter()
    for e in py.values():
        if not e["name"].startswith("nn.Module: "):
            continue
        path, p = [e["name"][len("nn.Module: "):].rsplit("_", 1)[0]], e
        while "Python parent id" in p["args"] and p["args"]["Python parent id"] in py:
            p = py[p["args"]["Python parent id"]]
            if p["name"].startswith("nn.Module: "):
                path.append(p["name"][len("nn.Module: "):].rsplit("_", 1)[0])
        calls["/".join(reversed(path))] += 1
    return dict(sorted(calls.items()))


def kineto(name):
    d = load(name)
    ev = d["traceEvents"]
    out = {"file": name}
    steps = sorted((e for e in ev if e.get("ph") == "X" and e["name"].startswith("ProfilerStep#")),
                   key=lambda e: e["ts"])
    out["steps"] = [(int(e["name"][len("ProfilerStep#"):]), ns(e["ts"] + e["dur"]) - ns(e["ts"]))
                    for e in steps]
    out["annotations"] = dict(collections.Counter(
        e["name"] for e in ev if e.get("cat") == "user_annotation"))
    ops = [e for e in ev if e.get("cat") == "cpu_op"]
    out["cpu_ops"] = len(ops)
    for op in ("aten::conv2d", "aten::linear", "aten::addmm", "aten::mm",
               "aten::_scaled_dot_product_flash_attention_for_cpu",
               "aten::scaled_dot_product_attention"):
        calls = [e for e in ops if e["name"] == op]
        if calls:
            out[op] = {"calls": len(calls), "shapes": dict(collections.Counter(
                json.dumps(e["args"].get("Input Dims")) for e in calls))}
    out["flops_args"] = sum(1 for e in ev if "flops" in e.get("args", {}))
    out["metadata"] = {k: d[k] for k in ("with_flops", "with_stack", "with_modules",
                                         "profile_memory", "record_shapes") if k in d}
    mem = [e for e in ev if e.get("name") == "[memory]"]
    if mem:
        out["memory_instants"] = len(mem)
        out["memory_allocs"] = sum(1 for e in mem if e["args"]["Bytes"] > 0)
        peak = max(mem, key=lambda e: e["args"]["Total Allocated"])
        out["memory_peak_bytes"] = peak["args"]["Total Allocated"]
        out["memory_devices"] = sorted({e["args"]["Device Type"] for e in mem})
    py = [e for e in ev if e.get("cat") == "python_function"]
    if py:
        out["python_functions"] = len(py)
        out["modules"] = module_tree(ev)
        # Operators that start inside a source frame (not nn.Module:, not
        # <built-in ...>) of their thread: those with a call stack.
        frames = collections.defaultdict(list)
        for e in py:
            if not e["name"].startswith(("nn.Module:", "<built-in", "torch/autograd")):
                frames[e["tid"]].append((e["ts"], e["ts"] + e["dur"]))
        out["ops_in_a_source_frame"] = sum(
            1 for e in ops if any(a <= e["ts"] < b for a, b in frames.get(e["tid"], [])))
    loaders = [e for e in ev if e.get("ph") == "X" and e["name"].startswith("enumerate(DataLoader)#")
               and e["name"].endswith(".__next__")]
    if loaders:
        per_step = []
        for s in steps:
            a, b = ns(s["ts"]), ns(s["ts"] + s["dur"])
            per_step.append(union_ns([(max(a, ns(e["ts"])), min(b, ns(e["ts"] + e["dur"])))
                                      for e in loaders
                                      if ns(e["ts"]) < b and ns(e["ts"] + e["dur"]) > a]))
        out["dataloader_ns_per_step"] = per_step
        out["dataloader_calls"] = len(loaders)
    if "distributedInfo" in d:
        out["distributedInfo"] = d["distributedInfo"]
        comm = [e for e in ev if e.get("ph") == "X" and (e["name"].startswith("c10d::")
                                                          or e["name"].startswith("gloo:")
                                                          or e["name"] == "record_param_comms")]
        out["collectives"] = dict(collections.Counter((e["name"], e["cat"]) for e in comm).items())
        out["collectives"] = {"%s (%s)" % k: v for k, v in out["collectives"].items()}
        out["c10d_input_dims"] = [e["args"].get("Input Dims", [None])[0]
                                  for e in sorted(comm, key=lambda e: e["ts"])
                                  if e["name"].startswith("c10d::")]
        in_steps = 0
        for e in comm:
            if e["name"].startswith("c10d::") and any(
                    s["ts"] <= e["ts"] < s["ts"] + s["dur"] for s in steps):
                in_steps += 1
        out["c10d_in_steps"] = in_steps
        # Each call's range in ms from the first step's start, and whether a
        # step holds it whole (rank 1's first gloo:all_reduce ends in step 3).
        t0 = steps[0]["ts"]
        out["collective_ranges_ms"] = [
            [e["name"], e["tid"], round((e["ts"] - t0) / 1000, 3),
             round((e["ts"] + e["dur"] - t0) / 1000, 3),
             any(s["ts"] <= e["ts"] and e["ts"] + e["dur"] <= s["ts"] + s["dur"] for s in steps)]
            for e in sorted(comm, key=lambda e: e["ts"])]
        out["step_ranges_ms"] = [[round((s["ts"] - t0) / 1000, 3),
                                  round((s["ts"] + s["dur"] - t0) / 1000, 3)] for s in steps]
    return out


def categories():
    raw = load("memory.raw.json.gz")
    out = {"rows": len(raw), "actions": dict(collections.Counter(r[1] for r in raw)),
           "categories_seen": sorted({CATEGORIES[r[3]] for r in raw})}
    times = sorted({r[0] for r in raw if r[0] >= 0})
    first = times[0]
    by_time = collections.defaultdict(list)
    for r in raw:
        by_time[first if r[0] < 0 else r[0]].append(r)
    cur = [0] * 8
    best = None
    for t in sorted(by_time):
        for r in by_time[t]:
            cur[r[3]] += r[2]
        if best is None or sum(cur) > best[1]:
            best = (t, sum(cur), list(cur))
    out["points"] = len(by_time)
    out["peak_time_ns"], out["peak_total_bytes"] = best[0], best[1]
    out["peak_bytes"] = dict(zip(CATEGORIES, best[2]))
    out["end_bytes"] = dict(zip(CATEGORIES, cur))
    times_us, sizes = load("memory.timeline.json.gz")
    k = max(range(len(sizes)), key=lambda i: sum(sizes[i]))
    out["torch_plot"] = {"points": len(times_us), "peak_time_us": times_us[k],
                         "peak_total_bytes": sum(sizes[k]),
                         "peak_bytes": dict(zip(CATEGORIES, sizes[k][1:])),
                         "end_bytes": dict(zip(CATEGORIES, sizes[-1][1:]))}
    return out


def main():
    for name in ("cnn_span1.pt.trace.json.gz", "cnn_span2.pt.trace.json.gz",
                 "loader.pt.trace.json.gz", "ddp_gloo/rank0.pt.trace.json.gz",
                 "ddp_gloo/rank1.pt.trace.json.gz", "memory.pt.trace.json.gz",
                 "transformer.pt.trace.json.gz"):
        print(json.dumps(kineto(name), indent=1))
    print(json.dumps({"memory.raw.json.gz": categories()}, indent=1))


if __name__ == "__main__":
    main()
