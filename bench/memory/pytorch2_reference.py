#!/usr/bin/env python3
"""Trainscope's snapshot figures against PyTorch 2.x's own _memory_viz.py on
the same pickles: the block bytes by state and the bytes allocated at the
dump by stack, as its `memory` flame graph counts them (its lines before
flamegraph.pl draws them), and the segment count its `segsum` prints (segsum
also checks that every segment's bytes add up). Exit 1 on any difference.

    python -m venv V && V/bin/pip install torch==2.15.0
    V/bin/python bench/memory/pytorch2_reference.py [--cli build/default/app/trainscope-cli] SNAPSHOT...
"""
import argparse
import collections
import json
import pickle
import re
import subprocess
import sys
import time

import torch
from torch.cuda import _memory_viz as viz


def json_values(text):
    """The JSON documents memory-stats prints one after the other."""
    decoder, at, out = json.JSONDecoder(), 0, []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return out
        value, at = decoder.raw_decode(text, at)
        out.append(value)


def number(v):
    return int(v) if not isinstance(v, str) else int(v.replace(",", ""))


def pytorch_figures(data):
    """By state (requested bytes and gaps, as _write_blocks accounts them) and,
    of active_allocated blocks, the requested bytes by stack text."""
    lines = viz.memory(data, format_flamegraph=lambda text: text)
    by_state, by_stack = collections.Counter(), collections.Counter()
    for line in lines.splitlines():
        path, size = line.rsplit(" ", 1)
        _stream, state, frames = path.split(";", 2)
        by_state[state] += int(size)
        if state == "active_allocated" and frames != "<gaps>":
            by_stack["<no frames>" if frames == "<non-python>" else frames] += int(size)
    summary = viz.segsum(data)
    segments = int(re.search(r"^segments: (\d+)$", summary, re.M).group(1))
    return by_state, by_stack, segments


def trainscope_figures(cli, path):
    run = lambda *args: subprocess.run([cli, "memory-stats", path, "--format", "json", *args],
                                       check=True, capture_output=True, text=True).stdout
    summary = json.loads(run())
    by_state = collections.Counter()
    segments = 0
    for d in summary["devices"]:
        by_state["active_allocated"] += d["active_bytes"]
        by_state["active_pending_free"] += d["pending_free_bytes"]
        by_state["inactive"] += d["inactive_bytes"]
        segments += d["segments"]
    by_stack = collections.Counter()
    allocated = sum(d["allocated_bytes"] for d in summary["devices"])
    for rows in json_values(run("--view", "dump")):
        for row in rows:
            by_stack[row["stack"]] += number(row["bytes"])
    return by_state, by_stack, segments, allocated


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("snapshots", nargs="+")
    parser.add_argument("--cli", default="build/default/app/trainscope-cli")
    args = parser.parse_args()
    print(f"PyTorch {torch.__version__}, {viz.__file__}")
    failed = False
    for path in args.snapshots:
        start = time.perf_counter()
        with open(path, "rb") as f:
            data = pickle.load(f)
        if isinstance(data, list):  # PyTorch 1.13's bare list of segments, which 2.x no longer reads
            data = {"segments": data}
        theirs_state, theirs_stack, theirs_segments = pytorch_figures(data)
        py_s = time.perf_counter() - start
        start = time.perf_counter()
        ours_state, ours_stack, ours_segments, ours_allocated = trainscope_figures(args.cli, path)
        ts_s = time.perf_counter() - start
        theirs_allocated = sum(theirs_stack.values())
        checks = [("segments", theirs_segments, ours_segments),
                  ("allocated (requested, active blocks)", theirs_allocated, ours_allocated)]
        for state in ("active_allocated", "active_pending_free", "inactive"):
            checks.append((f"bytes in {state} blocks", theirs_state[state], ours_state[state]))
        differing = [s for s in set(theirs_stack) | set(ours_stack)
                     if theirs_stack[s] != ours_stack[s]]
        checks.append(("stacks with allocated bytes", len(theirs_stack), len(ours_stack)))
        checks.append(("stacks whose bytes differ", 0, len(differing)))
        print(f"== {path} (PyTorch {py_s:.2f} s with pickle.load, Trainscope {ts_s:.2f} s, two runs)")
        for name, theirs, ours in checks:
            same = theirs == ours
            failed |= not same
            print(f"  {name:40} PyTorch {theirs:>20,}  Trainscope {ours:>20,}  "
                  f"{'same' if same else 'DIFFERENT'}")
        for stack in differing[:5]:
            print(f"    {theirs_stack[stack]:,} != {ours_stack[stack]:,}: {stack[:150]}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
