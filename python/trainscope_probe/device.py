"""CUDA figures, read without ever synchronising the GPU: phase times from CUDA events and
the loss from an asynchronous copy, both read a step late once their events have completed
(Event.query() asks, it never waits); the allocator's counters are host-side reads."""
import math
import os
import time
from collections import deque

import torch

PHASES = ("forward", "backward", "optimizer")
MAX_PENDING = 1000  # steps whose events are not done yet; past this the GPU is far behind


def describe(device):
    """(device, device_name) of the optimizer's parameters. Asked at the first optimizer
    step, once the script has chosen its device: asking CUDA earlier would initialise it
    before the script sets CUDA_VISIBLE_DEVICES."""
    if device is not None and device.type == "cuda" and torch.cuda.is_initialized():
        index = device.index if device.index is not None else torch.cuda.current_device()
        return f"cuda:{index}", torch.cuda.get_device_name(index)
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return "cpu", next((line.split(":", 1)[1].strip() for line in cpuinfo
                                if line.startswith("model name")), None)
    except OSError:
        return "cpu", None


def allocator():
    """Allocated, reserved and peak bytes of the current CUDA device; the peak is reset for
    the next step's. (A script reading max_memory_allocated sees per-step peaks.)"""
    figures = (torch.cuda.memory_allocated(), torch.cuda.memory_reserved(),
               torch.cuda.max_memory_allocated())
    torch.cuda.reset_peak_memory_stats()
    return figures


def snapshot(out, rank, trace_dir, step, cuda):
    """The CUDA allocator's state (segments and blocks; stack traces only if the script
    enabled torch.cuda.memory._record_memory_history, which costs every allocation)."""
    if not cuda:
        out.note(rank, "warning", "a memory snapshot needs CUDA; this script runs on the CPU")
        return
    path = os.path.join(trace_dir, f"rank{rank}_step{step}_snapshot.pickle")
    if out.save(rank, "the memory snapshot", path, torch.cuda.memory._dump_snapshot):
        out.send({"t": "snapshot", "rank": rank, "step": step, "path": path})


class CudaTimer:
    def __init__(self, out, rank):
        self._out, self._rank = out, rank
        self._open, self._spans = {}, {phase: [] for phase in PHASES}
        self._pending = deque(maxlen=MAX_PENDING)

    @staticmethod
    def _event():
        # None while a CUDA graph is captured: an event recorded then would be part of it.
        if torch.cuda.is_current_stream_capturing():
            return None
        event = torch.cuda.Event(enable_timing=True)
        event.record()
        return event

    def begin(self, phase):
        self._open[phase] = self._event()

    def end(self, phase):
        start, end = self._open.pop(phase, None), self._event()
        if start is not None and end is not None:
            self._spans[phase].append((start, end))

    def finish(self, step, loss):
        """Queues step `step`, its loss copied to pinned host memory without a wait."""
        spans, self._open, self._spans = self._spans, {}, {phase: [] for phase in PHASES}
        if torch.cuda.is_current_stream_capturing():
            return
        pinned = None
        if loss is not None:
            pinned = torch.empty((), dtype=torch.float32, pin_memory=True)
            pinned.copy_(loss.detach().reshape(()), non_blocking=True)
        events = [event for pairs in spans.values() for pair in pairs for event in pair]
        self._pending.append((step, spans, pinned, events + [self._event()]))

    def poll(self):
        """A `late` line for each queued step whose events have all completed (a phase on
        another stream may end after the step's last event), in order."""
        while self._pending and all(event.query() for event in self._pending[0][3]):
            step, spans, pinned, _ = self._pending.popleft()
            loss = float(pinned) if pinned is not None else math.nan
            line = {"t": "late", "rank": self._rank, "step": step,
                    "loss": loss if math.isfinite(loss) else None}
            for phase in PHASES:
                times = [start.elapsed_time(end) for start, end in spans[phase]]
                line[f"device_{phase}_ms"] = round(sum(times), 4) if times else None
            self._out.send(line)

    def drain(self, timeout_s):
        """At the end: polls (a crashed CUDA context must not hang the exit) until every
        step is read or the time is up."""
        deadline = time.monotonic() + timeout_s
        while self._pending and time.monotonic() < deadline:
            self.poll()
            time.sleep(0.002)
