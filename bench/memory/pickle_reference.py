#!/usr/bin/env python3
"""The Python side of snapshot_vs_pickle.sh: pickle.load of the snapshot (what
_memory_viz.py and MemoryViz's converters start with), its time and peak RSS,
and the same figures as bench_snapshot_read (make_snapshot.py's oracle), so
that both sides are seen to read the same snapshot.

    pickle_reference.py SNAPSHOT [--runs N] [--no-figures]

--no-figures: the load alone (snapshot_vs_pickle.sh times a process per
load, as a user's is, and asks for the figures once).
"""
import argparse
import os
import pickle
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_snapshot  # noqa: E402  (the oracle's rules)


def memory_viz_stats(data):
    """PyTorch's own _memory_viz.stats (per block state, over every segment), where
    a PyTorch is installed (MEMORY_VIZ names the file, else Debian's torch 1.13)."""
    import importlib.util
    path = os.environ.get("MEMORY_VIZ", "/usr/lib/python3/dist-packages/torch/cuda/_memory_viz.py")
    if not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location("memory_viz", path)
    viz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(viz)
    try:
        result = viz.stats(data["segments"])
    except Exception as e:  # a newer _memory_viz.py takes the whole snapshot
        result = viz.stats(data) if hasattr(viz, "stats") else {"error": str(e)}
    return {k: getattr(v, "value", v) for k, v in result.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("snapshot")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-figures", action="store_true")
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        data = None  # the last load's objects go first (peak RSS: one snapshot)
        start = time.perf_counter()
        with open(args.snapshot, "rb") as f:
            data = pickle.load(f)
        times.append(time.perf_counter() - start)
    mb = os.path.getsize(args.snapshot) / 1e6
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"pickle.load: median {statistics.median(times):.3f} s "
          f"({', '.join(f'{t:.3f}' for t in times)}), {mb / statistics.median(times):.0f} MB/s, "
          f"peak RSS {rss:.0f} MB ({rss / mb:.2f} of the file)", flush=True)
    if args.no_figures:
        os._exit(0)  # as a script that is done with it: no teardown of millions of objects
    viz = memory_viz_stats(data)
    if viz is not None:
        print(f"PyTorch _memory_viz.stats: {viz}")
    figures = make_snapshot.expected(data)
    for d in figures["devices"]:
        print(f"device {d['device']}: reserved {d['reserved_bytes']}, allocated {d['allocated_bytes']}, "
              f"peak allocated {d['peak_allocated_bytes']} at entry {d['peak_entry']}, "
              f"peak reserved {d['peak_reserved_bytes']}")


if __name__ == "__main__":
    main()
