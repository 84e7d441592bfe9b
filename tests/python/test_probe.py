"""Tests of Trainscope's Python probe (python/trainscope_probe, docs/script-probe.md): the
test scripts of tests/torch2/scripts run under the probe as subprocesses, the lines they
stream checked. Run with the pinned torch wheel's python:
    /var/cache/trainscope/torch-2.15.0/bin/python -m unittest discover -s tests/python
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "torch2" / "scripts"
sys.path.insert(0, str(ROOT / "python"))

from trainscope_probe.slow import SlowSteps, t_quantile  # noqa: E402

OWN_PROFILER_NOTE = ("the script runs its own torch.profiler; Trainscope's profiling "
                     "schedule was not applied")


def environment(config):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), PYTHONWARNINGS="ignore")
    env.pop("TRAINSCOPE_PROBE", None)
    if config is not None:
        env["TRAINSCOPE_PROBE"] = json.dumps(config)
    return env


def read_lines(path):
    with open(path) as stream:
        return [json.loads(line) for line in stream]


class Run:
    """One run of a script under the probe, streaming to a file."""

    def __init__(self, work, target, *args, profile=None, config=None, command=None,
                 cwd=None, timeout=60):
        self.work = Path(work)
        self.stream = self.work / "lines.jsonl"
        self.traces = self.work / "traces"
        full = {"v": 1, "stream_file": str(self.stream), "trace_dir": str(self.traces),
                "profile": profile or {}, "memory_every": 4}
        full.update(config or {})
        if command is None:
            command = [sys.executable, "-m", "trainscope_probe"]
        target = [str(SCRIPTS / target)] if target.endswith(".py") else ["-m", target]
        done = subprocess.run(command + target + list(args), env=environment(full), cwd=cwd,
                              capture_output=True, text=True, timeout=timeout)
        self.rc, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr
        self.lines = read_lines(self.stream) if self.stream.exists() else []

    def of(self, kind, rank=None):
        return [line for line in self.lines
                if line["t"] == kind and (rank is None or line["rank"] == rank)]

    def one(self, kind, rank=None):
        found = self.of(kind, rank)
        assert len(found) == 1, f"{len(found)} {kind} lines in {self.lines}"
        return found[0]


class ProbeTest(unittest.TestCase):
    def setUp(self):
        self._work = tempfile.TemporaryDirectory(prefix="probe-test-")
        self.work = Path(self._work.name)

    def tearDown(self):
        self._work.cleanup()

    def check_steps(self, run, count, rank=0):
        steps = run.of("step", rank)
        self.assertEqual([s["step"] for s in steps], list(range(count)), run.stderr)
        for s in steps:
            phases = s["data_ms"] + s["forward_ms"] + s["backward_ms"] + s["optimizer_ms"]
            self.assertLessEqual(phases, s["step_ms"] + 0.001, s)
            self.assertGreater(s["forward_ms"], 0, s)
            self.assertGreater(s["backward_ms"], 0, s)
            self.assertGreater(s["optimizer_ms"], 0, s)
            self.assertGreater(s["rss"], 0)
            self.assertIsInstance(s["loss"], float)
            self.assertIsNone(s["dev_alloc"])
        bye = run.one("bye", rank)
        self.assertEqual(bye["steps"], count)
        self.assertGreaterEqual(bye["overhead_us_per_step"], 0)
        return steps

    def check_trace(self, path, first_step, last_step):
        with open(path) as trace:
            events = json.load(trace)["traceEvents"]
        names = {event.get("name") for event in events}
        for step in range(first_step, last_step + 1):
            self.assertIn(f"ProfilerStep#{step}", names)

    def test_plain_loop_steps_epochs_memory_and_a_scheduled_trace(self):
        profile = {"enabled": True, "wait": 1, "warmup": 1, "active": 2, "repeat": 1}
        run = Run(self.work, "cnn_plain.py", "--steps", "6", "--epochs", "2", "--batch", "4",
                  profile=profile)
        self.assertEqual(run.rc, 0, run.stderr)
        self.assertIn("epoch 1 loss", run.stdout)
        hello = run.lines[0]
        self.assertEqual((hello["t"], hello["v"], hello["rank"], hello["world_size"]),
                         ("hello", 1, 0, 1))
        self.assertEqual(hello["script"], str(SCRIPTS / "cnn_plain.py"))
        self.assertEqual(hello["argv"][1:], ["--steps", "6", "--epochs", "2", "--batch", "4"])
        self.assertEqual(run.one("device")["device"], "cpu")
        steps = self.check_steps(run, 12)
        self.assertEqual([s["epoch"] for s in steps], [0] * 6 + [1] * 6)
        self.assertEqual({s["batch"] for s in steps}, {4})
        self.assertEqual({s["lr"] for s in steps}, {0.05})
        self.assertEqual([s["step"] for s in steps if s["profiled"]], [2, 3])
        epochs = run.of("epoch")
        self.assertEqual([(e["epoch"], e["steps"]) for e in epochs], [(0, 6), (1, 6)])
        self.assertTrue(all(e["epoch_time_s"] > 0 for e in epochs))
        trace = run.one("trace")
        self.assertEqual((trace["cycle"], trace["first_step"], trace["last_step"]), (0, 2, 3))
        self.assertEqual(trace["path"], str(run.traces / "rank0_cycle0.json"))
        self.check_trace(trace["path"], 2, 3)
        memory = run.of("memory")
        self.assertEqual([m["step"] for m in memory], [0, 4, 8])
        for m in memory:
            self.assertGreater(m["parameter_bytes"], 0)
            self.assertEqual(m["gradient_bytes"], m["parameter_bytes"])
            self.assertEqual(m["optimizer_state_bytes"], m["parameter_bytes"])  # momentum
            self.assertEqual(m["input_bytes"], 4 * 3 * 16 * 16 * 4 + 4 * 8)
        bye = run.one("bye")
        self.assertEqual((bye["status"], bye["exit_code"], bye["error"]), ("ok", 0, None))
        self.assertEqual(run.lines[-1]["t"], "bye")

    def test_adamw_learning_rate_follows_the_scheduler(self):
        run = Run(self.work, "adamw_scheduler.py", "--steps", "12", "--every", "4")
        self.assertEqual(run.rc, 0, run.stderr)
        steps = self.check_steps(run, 12)
        for s in steps:
            self.assertAlmostEqual(s["lr"], 0.01 * 0.5 ** (s["step"] // 4))
            self.assertEqual(s["batch"], 8)  # no DataLoader: the model's input tells it
        memory = run.of("memory")[0]
        self.assertGreaterEqual(memory["optimizer_state_bytes"], 2 * memory["parameter_bytes"])
        self.assertEqual(run.one("epoch")["steps"], 12)
        self.assertEqual(run.of("trace"), [])

    def test_loader_workers_data_time_batches_and_epochs(self):
        run = Run(self.work, "loader_workers.py", "--steps", "4", "--epochs", "2")
        self.assertEqual(run.rc, 0, run.stderr)
        steps = self.check_steps(run, 8)
        self.assertEqual({s["batch"] for s in steps}, {5})
        self.assertTrue(all(s["data_ms"] > 0 for s in steps))
        self.assertEqual([(e["epoch"], e["steps"]) for e in run.of("epoch")], [(0, 4), (1, 4)])

    def test_two_optimizers_count_one_step_an_iteration(self):
        run = Run(self.work, "two_optimizers.py", "--steps", "5")
        self.assertEqual(run.rc, 0, run.stderr)
        self.check_steps(run, 5)

    def test_the_scripts_own_profiler_keeps_working(self):
        own = self.work / "own_trace.json"
        run = Run(self.work, "own_profiler.py", str(own), "--steps", "6",
                  profile={"enabled": True, "warmup": 1, "active": 2})
        self.assertEqual(run.rc, 0, run.stderr)
        self.check_steps(run, 6)
        note = run.one("note")
        self.assertEqual((note["level"], note["text"]), ("warning", OWN_PROFILER_NOTE))
        self.assertEqual(run.of("trace"), [])
        self.assertFalse(run.traces.exists())
        self.check_trace(own, 2, 3)  # theirs: wait 1, warmup 1, active 2

    def test_a_crash_keeps_the_steps_and_the_error(self):
        run = Run(self.work, "crash.py", "--after", "3")
        self.assertEqual(run.rc, 1)
        self.check_steps(run, 3)
        bye = run.one("bye")
        self.assertEqual((bye["status"], bye["exit_code"]), ("exception", 1))
        self.assertTrue(bye["error"].endswith(
            "RuntimeError: the data of step 3 is corrupt (a test failure)"), bye["error"])
        # The traceback as python prints it: from the script's frame, none of the probe's.
        self.assertTrue(run.stderr.startswith("Traceback (most recent call last):\n  File \""
                                              + str(SCRIPTS / "crash.py")), run.stderr)
        self.assertNotIn("trainscope_probe", run.stderr)
        self.assertNotIn("runpy", run.stderr)

    def test_no_optimizer_step_is_said(self):
        run = Run(self.work, "no_steps.py")
        self.assertEqual(run.rc, 0, run.stderr)
        note = run.one("note")
        self.assertEqual((note["level"], note["text"]),
                         ("warning", "no optimizer.step() was seen: no steps were measured"))
        bye = run.one("bye")
        self.assertEqual((bye["steps"], bye["status"], bye["overhead_us_per_step"]),
                         (0, "ok", None))

    def test_sigint_ends_as_interrupted_with_the_open_trace_written(self):
        stream, traces = self.work / "lines.jsonl", self.work / "traces"
        config = {"v": 1, "stream_file": str(stream), "trace_dir": str(traces),
                  "profile": {"enabled": True, "warmup": 1, "active": 1000}}
        process = subprocess.Popen(
            [sys.executable, "-m", "trainscope_probe", str(SCRIPTS / "cnn_plain.py"),
             "--steps", "1000", "--sleep", "0.02"], env=environment(config),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            # Ctrl-C's default, as a terminal gives it: a test run from a
            # background job of a non-interactive shell inherits SIGINT ignored.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
                stream.exists() and stream.read_text().count('"t":"step"') >= 4):
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
        self.assertEqual(process.returncode, -signal.SIGINT, stderr)
        self.assertTrue(stderr.rstrip().endswith("KeyboardInterrupt"), stderr)
        lines = read_lines(stream)
        bye = lines[-1]
        self.assertEqual((bye["t"], bye["status"], bye["exit_code"]), ("bye", "interrupted", 130))
        self.assertGreaterEqual(bye["steps"], 4)
        trace = [line for line in lines if line["t"] == "trace"][0]
        self.assertEqual((trace["first_step"], trace["last_step"]), (1, bye["steps"] - 1))
        self.check_trace(trace["path"], 1, bye["steps"] - 1)

    def test_exit_status_module_mode_and_argv(self):
        (self.work / "exit_three.py").write_text(
            "import sys\nprint('argv', sys.argv[1:])\nsys.exit(3)\n")
        run = Run(self.work, "exit_three", "a", "--b", cwd=self.work)
        self.assertEqual(run.rc, 3, run.stderr)
        self.assertIn("argv ['a', '--b']", run.stdout)
        hello = run.lines[0]
        self.assertEqual((hello["module"], hello["script"]), ("exit_three", None))
        bye = run.one("bye")
        self.assertEqual((bye["status"], bye["exit_code"], bye["steps"]), ("exit", 3, 0))
        # Without TRAINSCOPE_PROBE the probe only runs the script.
        bare = subprocess.run([sys.executable, "-m", "trainscope_probe", "-m", "exit_three"],
                              env=environment(None), cwd=self.work, capture_output=True)
        self.assertEqual(bare.returncode, 3)

    def test_bad_configuration_and_missing_script_are_refused(self):
        env = environment(None)
        env["TRAINSCOPE_PROBE"] = json.dumps({"v": 1, "profile": {"active": "three"}})
        bad = subprocess.run([sys.executable, "-m", "trainscope_probe",
                              str(SCRIPTS / "no_steps.py")], env=env, capture_output=True,
                             text=True)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("profile.active must be a whole number >= 0, not 'three'", bad.stderr)
        missing = subprocess.run([sys.executable, "-m", "trainscope_probe", "no_such.py"],
                                 env=environment(None), capture_output=True, text=True)
        self.assertEqual(missing.returncode, 2)
        self.assertIn("can't open file", missing.stderr)

    def test_trace_next_over_a_socket(self):
        path = str(self.work / "probe.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        server.settimeout(30)
        config = {"v": 1, "socket": path, "trace_dir": str(self.work / "traces")}
        process = subprocess.Popen(
            [sys.executable, "-m", "trainscope_probe", str(SCRIPTS / "cnn_plain.py"),
             "--steps", "40", "--sleep", "0.02"], env=environment(config),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        connection, _ = server.accept()
        lines, asked_at = [], None
        with connection, connection.makefile("rb") as stream:
            for raw in stream:
                lines.append(json.loads(raw))
                if asked_at is None and lines[-1]["t"] == "step" and lines[-1]["step"] >= 3:
                    asked_at = lines[-1]["step"]
                    # Cut in two, with an unknown type and a snapshot (CPU: a note).
                    connection.sendall(b'{"t":"trace_next",')
                    connection.sendall(b'"steps":2}\n{"t":"unknown"}\n{"t":"snapshot"}\n')
        server.close()
        _, stderr = process.communicate(timeout=30)
        self.assertEqual(process.returncode, 0, stderr)
        self.assertEqual(lines[0]["t"], "hello")
        trace = [line for line in lines if line["t"] == "trace"]
        self.assertEqual(len(trace), 1, lines)
        first, last = trace[0]["first_step"], trace[0]["last_step"]
        self.assertEqual(last - first, 1)
        self.assertGreater(first, asked_at)
        profiled = [line["step"] for line in lines if line["t"] == "step" and line["profiled"]]
        self.assertEqual(profiled, [first, last])
        self.check_trace(trace[0]["path"], first, last)
        notes = [line["text"] for line in lines if line["t"] == "note"]
        self.assertEqual(notes, ["a memory snapshot needs CUDA; this script runs on the CPU"])
        self.assertEqual(lines[-1]["t"], "bye")

    def test_a_slow_step_is_caught_and_the_next_steps_traced(self):
        run = Run(self.work, "slow_step.py", "--steps", "34", "--slow-at", "28",
                  profile={"active": 2}, config={"catch_slow": True})
        self.assertEqual(run.rc, 0, run.stderr)
        slow = run.one("slow")
        self.assertEqual((slow["step"], slow["trace_steps"]), (28, 2), run.lines)
        self.assertGreater(slow["step_ms"], slow["upper_ms"] * 1.1)
        self.assertLess(slow["upper_ms"], 100)
        trace = run.one("trace")
        self.assertEqual((trace["first_step"], trace["last_step"]), (29, 30))

    def test_torchrun_two_ranks_report_their_rank_and_traces(self):
        profile = {"enabled": True, "warmup": 1, "active": 2}
        run = Run(self.work, "ddp_gloo.py", "--steps", "5", profile=profile,
                  command=[sys.executable, "-m", "torch.distributed.run", "--nproc-per-node",
                           "2", "--standalone", "-m", "trainscope_probe"], timeout=90)
        self.assertEqual(run.rc, 0, run.stderr)
        for rank in (0, 1):
            hello = run.one("hello", rank)
            self.assertEqual((hello["local_rank"], hello["world_size"]), (rank, 2))
            self.check_steps(run, 5, rank)
            trace = run.one("trace", rank)
            self.assertEqual(trace["path"], str(run.traces / f"rank{rank}_cycle0.json"))
            self.check_trace(trace["path"], 1, 2)


class SlowStepMathTest(unittest.TestCase):
    def test_t_quantiles_match_the_tables(self):
        # From 10 degrees of freedom on (the probe uses 19 and more).
        for probability, df, expected in ((0.975, 10, 2.2281), (0.9995, 10, 4.5869),
                                          (0.9995, 19, 3.8834), (0.9995, 49, 3.5004)):
            self.assertAlmostEqual(t_quantile(probability, df), expected, places=2)
            if df >= 19:
                self.assertAlmostEqual(t_quantile(probability, df), expected, places=3)

    def test_fires_once_above_the_prediction_interval(self):
        slow = SlowSteps()
        for i in range(30):
            self.assertIsNone(slow.check(20 + (i % 3) * 0.2))
        self.assertIsNone(slow.check(21.5))  # within the noise
        self.assertIsNone(slow.check(25))  # beyond it, but a hiccup: under 1.5x the median
        median, upper = slow.check(40)
        self.assertAlmostEqual(median, 20.2, delta=0.05)
        self.assertLess(upper, 40 / 1.1)
        self.assertIsNone(slow.check(80))  # once a run


if __name__ == "__main__":
    unittest.main()
