#!/usr/bin/env python3
"""The Python side of bench/query/query_vs_pandas.sh: what a user does today
to ask a trace their own question (and what Holistic Trace Analysis does):
json.load the trace, make a pandas DataFrame of its complete events, then a
GROUP BY name over every event and the same over the events of one step
(every lane). Prints the same lines as bench_trace_query, medians of --runs.

    pandas_reference.py TRACE [--runs N] [--step N]

Needs pandas (pip install pandas); no other package.
"""
import argparse
import gzip
import json
import resource
import statistics
import sys
import time


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def measure(label, runs, work):
    times, rows = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        rows = work()
        times.append(time.perf_counter() - start)
    print(f"{label:<44} median {statistics.median(times):.3f} s "
          f"({', '.join(f'{t:.3f}' for t in times)}), {rows} rows")


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--step", type=int, default=-1)
    args = parser.parse_args()
    try:
        import pandas as pd
    except ImportError:
        sys.exit("pandas_reference.py: pandas is missing (pip install pandas)")

    start = time.perf_counter()
    trace = load(args.trace)
    loaded = time.perf_counter() - start
    # Trainscope keeps python_function frames apart from the events (for the
    # module view): leave them out here too, so both count the same events.
    events = [e for e in trace.get("traceEvents", [])
              if e.get("ph") == "X" and e.get("cat") != "python_function"]
    df = pd.DataFrame({
        "name": [e.get("name", "") for e in events],
        "ts": [e.get("ts", 0) for e in events],
        "dur": [e.get("dur", 0) for e in events],
        "pid": [e.get("pid", 0) for e in events],
        "tid": [e.get("tid", 0) for e in events],
        "cat": [e.get("cat", "") for e in events],
    })
    df["name"] = df["name"].astype("category")  # HTA interns names too
    df["end"] = df["ts"] + df["dur"]
    del events, trace
    made = time.perf_counter() - start
    print(f"{args.trace}: {len(df)} events, json.load {loaded:.2f} s, DataFrame made at "
          f"{made:.2f} s, peak RSS {peak_rss_mb()} MB")

    def group_all():
        g = df.groupby("name", observed=True)["dur"].agg(["count", "sum", "min", "max"])
        return len(g.sort_values("sum", ascending=False))

    measure("GROUP BY name, every event (pandas)", args.runs, group_all)

    steps = df[df["name"].astype(str).str.startswith("ProfilerStep#")]
    if len(steps):
        numbers = steps["name"].astype(str).str.slice(len("ProfilerStep#")).astype(int)
        wanted = args.step if args.step >= 0 else int(sorted(numbers)[len(numbers) // 2])
        row = steps[numbers == wanted].iloc[0]
        t0, t1 = row["ts"], row["end"]

        def group_step():
            inside = df[(df["end"] > t0) & (df["ts"] < t1)]
            g = inside.groupby("name", observed=True)["dur"].agg(["count", "sum", "min", "max"])
            return len(g)

        measure(f"area: step {wanted}, every lane (pandas)", args.runs, group_step)
    print(f"peak RSS {peak_rss_mb()} MB", flush=True)


if __name__ == "__main__":
    main()
