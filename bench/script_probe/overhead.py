"""What the script probe (python/trainscope_probe, issue #63) costs a training script.

README: run it with the pinned torch wheel's python, from anywhere:
    /var/cache/trainscope/torch-2.15.0/bin/python bench/script_probe/overhead.py [--rounds 5]
It runs workload.py (its own step times measured by itself) in two shapes of ~20 ms steps,
"compute" (an MLP sized to ~20 ms on the CPU: the probe's Python runs with caches the
training has cooled) and "sleep" (a small MLP and a 20 ms sleep, a step that waits as for a
GPU), each side by side in one session, alternating the order each round:
1. tracing off: bare (`python workload.py`) against under the probe (`python -m
   trainscope_probe workload.py`, streaming to a socket as Trainscope does): the median
   step time of each, the difference per step in us and the ratio;
2. tracing on: the probe running torch.profiler on a schedule against the same schedule
   written in the script by hand: the median time of the active (recorded) steps of each.
Each figure twice: wall-clock, and the process's CPU time (on a shared machine, wall-clock
rounds differ by 10-20%; CPU time leaves preemptions and sleeps out). It prints figures
only; no pass/fail (the issue's targets: under 200 us a 20 ms step with tracing off, the
profiler's own cost plus at most 2% with tracing on).
"""
import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_PATH = os.path.join(HERE, "..", "..", "python")
WORKLOAD = os.path.join(HERE, "workload.py")
SKIP = 10  # first steps left out of tracing-off medians (warm-up)
CLOCKS = ("wall", "cpu")
SCHEDULE = {"wait": 5, "warmup": 2, "active": 5, "repeat": 3}


def listen(path, lines):
    """Reads the probe's lines like Trainscope: one connection, until it closes."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)

    def serve():
        connection, _ = server.accept()
        with connection, connection.makefile("rb") as stream:
            lines.extend(json.loads(line) for line in stream)
        server.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def run(mode, shape, steps, work):
    """Step times (s: {"wall": [...], "cpu": [...]}) of one run of the workload in `mode`,
    and the probe's bye line."""
    out = os.path.join(work, f"{mode}.json")
    args = [WORKLOAD, "--out", out, "--steps", str(steps), *shape]
    schedule = [f"--{key}={value}" for key, value in SCHEDULE.items()]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [PROBE_PATH] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.pop("TRAINSCOPE_PROBE", None)
    lines, reader = [], None
    if mode == "by-hand":
        command = [sys.executable, *args, "--profile-by-hand", work, *schedule]
    elif mode == "bare":
        command = [sys.executable, *args]
    else:
        sock = os.path.join(work, "probe.sock")
        if os.path.exists(sock):
            os.unlink(sock)
        reader = listen(sock, lines)
        profile = dict(SCHEDULE, enabled=mode == "probe-traced", skip_first=0,
                       record_shapes=True, profile_memory=True, with_stack=False)
        env["TRAINSCOPE_PROBE"] = json.dumps({"v": 1, "socket": sock, "trace_dir": work,
                                              "profile": profile, "memory_every": 50})
        command = [sys.executable, "-m", "trainscope_probe", *args]
    subprocess.run(command, env=env, check=True, stderr=subprocess.DEVNULL)
    if reader is not None:
        reader.join(timeout=30)
    with open(out) as times:
        return json.load(times), next((line for line in lines if line["t"] == "bye"), None)


def active_steps(steps):
    cycle = SCHEDULE["wait"] + SCHEDULE["warmup"] + SCHEDULE["active"]
    return [i for i in range(min(steps, cycle * SCHEDULE["repeat"]))
            if i % cycle >= SCHEDULE["wait"] + SCHEDULE["warmup"]]


# Student's t at 0.975 by degrees of freedom: the 95% interval of the mean log ratio of the
# paired rounds, as Trainscope's noise interval (core/analysis/NoiseInterval.h) computes it.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]


def paired_interval(a, b):
    """(low, high) of b / a - 1 over paired rounds, or None with fewer than 2."""
    logs = [math.log(y / x) for x, y in zip(a, b)]
    if len(logs) < 2:
        return None
    half = T975[min(len(logs) - 2, len(T975) - 1)] * statistics.stdev(logs) / len(logs) ** 0.5
    mean = statistics.mean(logs)
    return math.expm1(mean - half), math.expm1(mean + half)


def compare(title, label_a, label_b, rounds, pick, shape, steps, work):
    """Runs modes a and b alternately; prints per-round medians of the picked steps."""
    print(f"\n{title}")
    medians = {(mode, clock): [] for mode in (label_a, label_b) for clock in CLOCKS}
    overheads = []
    for r in range(rounds):
        for mode in (label_a, label_b) if r % 2 == 0 else (label_b, label_a):
            times, bye = run(mode, shape, steps, work)
            for clock in CLOCKS:
                medians[mode, clock].append(statistics.median(pick(times[clock])) * 1e3)
            if bye is not None:
                overheads.append(bye["overhead_us_per_step"])
        print(f"  round {r + 1}: " + "; ".join(
            f"{clock} {label_a} {medians[label_a, clock][-1]:.3f} ms, {label_b} "
            f"{medians[label_b, clock][-1]:.3f} ms" for clock in CLOCKS))
    for clock in CLOCKS:
        a_rounds, b_rounds = medians[label_a, clock], medians[label_b, clock]
        a, b = statistics.median(a_rounds), statistics.median(b_rounds)
        diffs = [(y - x) * 1e3 for x, y in zip(a_rounds, b_rounds)]
        low, high = paired_interval(a_rounds, b_rounds) or (math.nan, math.nan)
        print(f"  {clock}: median step {label_a} {a:.3f} ms, {label_b} {b:.3f} ms; "
              f"{label_b} - {label_a} {statistics.median(diffs):+.0f} us a step (rounds: "
              f"{', '.join(f'{d:+.0f}' for d in diffs)}); ratio {b / a:.4f}, 95% interval "
              f"of the ratio - 1 over the paired rounds {low:+.2%} ... {high:+.2%}")
    if overheads:
        print(f"  the probe's own time (bye overhead_us_per_step), median of rounds: "
              f"{statistics.median(overheads):.1f} us")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--step-ms", type=float, default=20.0, help="target step time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="probe-bench-") as work:
        # The least of two medians: a calibration run that a busy machine slowed would
        # size the workload too small. An MLP's time grows with the square of its width.
        median = min(statistics.median(run("bare", ["--width", "1024"], 30, work)[0]["cpu"]
                                       [SKIP:]) for _ in "ab")
        width = max(64, round(1024 * (args.step_ms / 1e3 / median) ** 0.5 / 64) * 64)
        shapes = {"compute": ["--width", str(width)],
                  "sleep": ["--width", "256", "--sleep-ms", str(args.step_ms)]}
        active = active_steps(args.steps)
        print(f"compute: width {width} (1024 gave {median * 1e3:.2f} ms a step); sleep: "
              f"width 256 and {args.step_ms:g} ms of sleep; {args.steps} steps a run, "
              f"{args.rounds} rounds; profiler schedule {SCHEDULE}: {len(active)} active "
              f"steps a run; python {sys.executable}")
        for name, shape in shapes.items():
            compare(f"1. tracing off, {name}: bare script against the script under the probe",
                    "bare", "probe", args.rounds, lambda t: t[SKIP:], shape, args.steps, work)
            compare(f"2. tracing on, {name}, active steps: torch.profiler by hand against "
                    "the probe's", "by-hand", "probe-traced", args.rounds,
                    lambda t: [t[i] for i in active], shape, args.steps, work)


if __name__ == "__main__":
    main()
