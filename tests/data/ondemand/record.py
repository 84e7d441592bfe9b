#!/usr/bin/env python3
"""Records the on-demand fixtures of this folder: PyTorch processes started
with KINETO_USE_DAEMON=1 (train.py) traced through daemon.py's stand-in for
dynolog, each trace gzipped with mtime 0:

    python3 tests/data/ondemand/record.py [--python PYTHON] [FIXTURE...]

(PYTHON: one with torch, the pinned wheel's venv by default; FIXTURE: the
first file name of those to record, all by default.) Each trace must show 4
optimizer steps or more, else it is recorded again: a machine busy with
other work makes each step slower.

iteration_adamw.json.gz  asked for 3 iterations (PROFILE_START_ITERATION=0,
                         ACTIVITIES_ITERATIONS=3), AdamW with a scheduler,
                         80 ms asleep after each step
duration_sgd.json.gz     asked for 300 ms from now (PROFILE_START_TIME=0),
                         SGD, each step computing ~35 ms: the trace starts
                         inside an iteration (checked: its first operator is
                         not the forward's first aten::linear; else recorded
                         again)
ddp/worker{0,1}.json.gz  300 ms of each rank of a two-rank Gloo
                         DistributedDataParallel job (SGD), in the order of
                         their process ids, asked at each one's second poll
                         (checked: as many all-reduces in each; else
                         recorded again)

The pinned wheel's CPU build (torch 2.15) records 500 ms, its default
duration, for the iteration request too. Traces are written under /tmp/
(Kineto refuses on-demand files elsewhere). Only one process can bind the
socket dynolog polls: while another daemon holds it, this waits a minute and
tries again.
"""
import collections
import errno
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import daemon

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/var/cache/trainscope/torch-2.15.0/bin/python"
MIN_STEPS = 4

# at_poll: the config goes to each process's at_poll-th poll (every 5 s), so
# that the ranks' trace starts after their rendezvous and first iterations.
Fixture = collections.namedtuple("Fixture", "names args config check at_poll")


def starts_inside_an_iteration(traces):
    return first_top_level_op(traces[0]) != "aten::linear"


def same_collectives(traces):
    return len({count(t, "c10d::allreduce_") for t in traces}) == 1


FIXTURES = [
    Fixture(["iteration_adamw.json.gz"], ["adamw", "14", "0.08", "64", "16"],
            r"PROFILE_START_ITERATION=0\nPROFILE_START_ITERATION_ROUNDUP=1\n"
            r"ACTIVITIES_ITERATIONS=3", None, 1),
    Fixture(["duration_sgd.json.gz"], ["sgd", "14", "0.01", "1024", "1024"],
            r"PROFILE_START_TIME=0\nACTIVITIES_DURATION_MSECS=300", starts_inside_an_iteration, 1),
    Fixture(["ddp/worker0.json.gz", "ddp/worker1.json.gz"], ["ddp", "14", "0.03", "128", "128"],
            r"PROFILE_START_TIME=0\nACTIVITIES_DURATION_MSECS=300", same_collectives, 2),
]


def count(trace, name):
    return sum(e.get("name") == name for e in trace["traceEvents"])


def optimizer_steps(trace):
    return sum(e.get("name", "").startswith("Optimizer.step#") for e in trace["traceEvents"])


def bind_when_free():
    for attempt in range(10):
        try:
            return daemon.bind()
        except OSError as e:
            if e.errno != errno.EADDRINUSE:
                raise
            print("another daemon holds the dynolog socket; waiting a minute", flush=True)
            time.sleep(60)
    sys.exit("the dynolog socket stayed busy")


def first_top_level_op(trace):
    """The name of the earliest cpu_op not inside another on its thread."""
    ops = sorted((e for e in trace["traceEvents"] if e.get("cat") == "cpu_op"),
                 key=lambda e: (e["tid"], e["ts"], -e["dur"]))
    first, end = None, {}
    for e in ops:
        if e["ts"] < end.get(e["tid"], -1):
            continue
        end[e["tid"]] = e["ts"] + e["dur"]
        if first is None or e["ts"] < first["ts"]:
            first = e
    return first["name"]


def record(fixture):
    """The traces of the processes that stepped an optimizer, by pid: (json, bytes)."""
    out = tempfile.mkdtemp(prefix="trainscope-ondemand-", dir="/tmp")
    try:
        sock = bind_when_free()
        env = dict(os.environ, KINETO_USE_DAEMON="1")
        train = subprocess.Popen([PYTHON, os.path.join(HERE, "train.py")] + fixture.args,
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        config = r"ACTIVITIES_LOG_FILE=%s/trace.json\n%s" % (out, fixture.config)
        daemon.serve(sock, config, 40, done=lambda: train.poll() is not None,
                     log=lambda *a: None, every_process=len(fixture.names) > 1,
                     at_poll=fixture.at_poll)
        sock.close()
        train.wait()
        traces = []
        pid = lambda path: int(re.search(r"_(\d+)\.json$", path).group(1))
        for path in sorted(glob.glob(os.path.join(out, "trace_*.json")), key=pid):
            with open(path, "rb") as f:
                raw = f.read()
            trace = json.loads(raw)
            if optimizer_steps(trace):
                traces.append((trace, raw))
        if len(traces) != len(fixture.names):
            sys.exit("%d traces recorded in %s, not %d" % (len(traces), out, len(fixture.names)))
        return traces
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    global PYTHON
    args = sys.argv[1:]
    if args[:1] == ["--python"]:
        PYTHON, args = args[1], args[2:]
    for fixture in FIXTURES:
        if args and fixture.names[0] not in args:
            continue
        for attempt in range(3):
            traces = record(fixture)
            jsons = [t for t, _ in traces]
            if all(optimizer_steps(t) >= MIN_STEPS for t in jsons) and (
                    fixture.check is None or fixture.check(jsons)):
                break
            print(fixture.names[0] + ": not what it should show; again", flush=True)
        else:
            sys.exit(fixture.names[0] + ": not recorded")
        for name, (trace, raw) in zip(fixture.names, traces):
            os.makedirs(os.path.dirname(os.path.join(HERE, name)), exist_ok=True)
            with open(os.path.join(HERE, name), "wb") as f:
                with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as z:
                    z.write(raw)
            print("%s: %d events, %d optimizer steps, first operator %s" %
                  (name, len(trace["traceEvents"]), optimizer_steps(trace),
                   first_top_level_op(trace)), flush=True)


if __name__ == "__main__":
    main()
