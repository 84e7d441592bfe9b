"""One script run under the probe: the hello line, the hooks, and the bye line at the end."""
import os
import platform
import signal
import sys
import threading
import time

import torch

from . import WIRE_VERSION
from .profiling import Profiling
from .slow import SlowSteps
from .steps import StepMeter
from .stream import LineStream


def _env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


class Session:
    def __init__(self, config, script, module):
        start = time.perf_counter_ns()
        self.rank = _env_int("RANK", 0)  # torchrun sets it; a plain run is rank 0 of 1
        self._out = out = LineStream(config.socket, config.stream_file)
        # No device here: asking would initialise CUDA before the script chose its devices.
        # The `device` line at the first step tells it.
        out.send({"t": "hello", "v": WIRE_VERSION, "pid": os.getpid(), "rank": self.rank,
                  "local_rank": _env_int("LOCAL_RANK", 0),
                  "world_size": _env_int("WORLD_SIZE", 1), "python": platform.python_version(),
                  "executable": sys.executable, "torch": torch.__version__,
                  "cuda": torch.version.cuda, "device": None, "device_name": None,
                  "script": os.path.abspath(script) if script else None, "module": module,
                  "argv": list(sys.argv), "cwd": os.getcwd()})
        self._profiling = Profiling(config.profile, config.trace_dir, self.rank, out)
        self._meter = StepMeter(out, self.rank, self._profiling,
                                SlowSteps() if config.catch_slow else None, config, start)
        self._meter.install()

    def finish(self, status, exit_code, error):
        """Writes what is left (the last epoch, an open trace cycle, late CUDA figures), then
        bye. A second Ctrl-C (Trainscope's Stop) must not cut a trace in half: SIGINT is
        ignored meanwhile; a kill still ends it."""
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        out, meter = self._out, self._meter
        try:
            for stage in (meter.finish, self._profiling.close):
                try:
                    stage()
                except Exception as failure:
                    out.note(self.rank, "error", f"the probe could not finish: {failure!r}")
            steps = meter.step
            if not steps:
                out.note(self.rank, "warning",
                         "no optimizer.step() was seen: no steps were measured")
            # The mean over the steps after the first: the first carries one-time work
            # (the device, the profiler's start), reported apart.
            first = round(meter.first_step_overhead_ns / 1000, 3) if steps else None
            later = (meter.overhead_ns - meter.first_step_overhead_ns) / max(steps - 1, 1)
            out.send({"t": "bye", "rank": self.rank, "steps": steps, "status": status,
                      "exit_code": exit_code, "error": error,
                      "overhead_us_per_step": round(later / 1000, 3) if steps > 1 else first,
                      "overhead_first_step_us": first})
            out.close()
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
