"""torch.profiler on Trainscope's schedule, plus the extra cycles Trainscope (trace_next) or
a slow step asks for, one Kineto trace file per cycle."""
import os
import warnings

import torch
from torch.profiler import ProfilerAction, ProfilerActivity

NONE = ProfilerAction.NONE
RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
LOOKAHEAD = 10_000  # steps searched for a gap in the schedule for an extra cycle
OWN_PROFILER = ("the script runs its own torch.profiler; Trainscope's profiling schedule "
                "was not applied")


class Profiling:
    """One torch.profiler.profile for the whole run, stepped at each step's end, so that
    its ProfilerStep#N are the probe's step numbers. Its schedule is Trainscope's (or
    never, when profiling is off) except in extra windows, planned in the schedule's
    gaps: one profiler only can run in a process."""

    def __init__(self, settings, trace_dir, rank, out):
        self._settings, self._dir, self._rank, self._out = settings, trace_dir, rank, out
        self._prof, self._cycle, self.foreign = None, 0, False
        self._daemon = bool(os.environ.get("KINETO_USE_DAEMON"))
        self._windows = []  # [first, last] steps of the extra cycles, in order
        self._first = self._last = None  # steps recorded in the cycle being recorded
        self._base = torch.profiler.schedule(**{key: settings[key] for key in (
            "skip_first", "wait", "warmup", "active", "repeat")}) \
            if settings["enabled"] else lambda step: NONE
        self._watch_script_profilers()

    def begin(self, cuda):
        """Starts the profiler at the first optimizer step: only then is the device known
        (see device.describe). Step 0's forward and backward are not in a trace (a first
        step is a warm-up anyway)."""
        if self.foreign or self._prof is not None:
            return
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
        settings = self._settings
        # Each cycle is its own trace file, as meant: torch's advice to keep events across
        # cycles would only land in the script's output.
        warnings.filterwarnings("ignore", message="Warning: Profiler clears events",
                                category=UserWarning)
        self._prof = torch.profiler.profile(
            activities=activities, schedule=self._schedule, on_trace_ready=self._ready,
            record_shapes=settings["record_shapes"], profile_memory=settings["profile_memory"],
            with_stack=settings["with_stack"])
        self._prof.start()

    def _schedule(self, step):
        for first, last in self._windows:
            if first <= step <= last:
                return ProfilerAction.RECORD_AND_SAVE if step == last else ProfilerAction.RECORD
        return self._base(step)

    def state(self):
        """(busy, recording) of the step ending: busy, the profiler warming up or recording
        (its own cost is in the step); recording, in an active window."""
        action = self._prof.current_action if self._prof is not None else NONE
        return action != NONE, action in RECORDING

    def request(self, steps, next_step):
        """Plans one more cycle of `steps` steps from `next_step` on, or from the first gap
        in the schedule that fits it (the cycle under way goes on). Returns its first step,
        or None with a note saying why not."""
        why = None
        if self.foreign:
            why = OWN_PROFILER
        elif self._prof is None:
            why = "the profiler is not running"
        else:
            start = max([next_step] + [last + 1 for _, last in self._windows])
            for first in range(start, start + LOOKAHEAD):
                if all(self._base(s) == NONE for s in range(first, first + steps)):
                    self._windows.append([first, first + steps - 1])
                    return first
            why = "Trainscope's schedule leaves no gap for it"
        self._out.note(self._rank, "warning", f"could not trace {steps} more steps: {why}")
        return None

    def step_done(self, step, recorded):
        """Step `step` has ended (recorded: in an active window)."""
        if recorded:
            self._first = step if self._first is None else self._first
            self._last = step
        if self._windows:
            self._windows = [w for w in self._windows if w[1] >= step]

    def advance(self):
        """To the next step, as the step's last act (the schedule's next action). Idle, from
        no action to no action, only the step number moves: prof.step() there starts and
        stops nothing but costs ~150 us once a step has cooled the caches. (Its
        ProfilerStep#N range is then left open over idle steps, unless Kineto's daemon, which
        may trace any step, is on: KINETO_USE_DAEMON.)"""
        prof = self._prof
        if prof is None:
            return
        if (not self._daemon and prof.current_action == NONE
                and self._schedule(prof.step_num + 1) == NONE):
            prof.step_num += 1
        else:
            prof.step()

    def _ready(self, prof):
        path = os.path.join(self._dir, f"rank{self._rank}_cycle{self._cycle}.json")
        if self._out.save(self._rank, "the trace", path, prof.export_chrome_trace):
            self._out.send({"t": "trace", "rank": self._rank, "cycle": self._cycle,
                            "path": path, "first_step": self._first, "last_step": self._last})
        self._cycle += 1
        self._first = self._last = None

    def close(self):
        """Stops the profiler; a cycle being recorded is written as it stands."""
        prof, self._prof = self._prof, None
        if prof is not None:
            prof.stop()

    def _yield_to_script(self):
        if self.foreign:
            return
        self.foreign = True
        self.close()  # before theirs starts: two Kineto sessions cannot run at once
        self._out.note(self._rank, "warning", OWN_PROFILER)

    def _watch_script_profilers(self):
        """Notices a profiler the probe did not start, through the entry points a script
        uses: torch.profiler.profile.start (which `with` calls too) and the older
        torch.autograd.profiler.profile's `with`. The probe's own profiler enters neither
        (its inner autograd profiler is started by _KinetoProfile directly)."""
        probe = self
        modern, legacy = torch.profiler.profile, torch.autograd.profiler.profile
        modern_start, legacy_enter = modern.start, legacy.__enter__

        def start(prof):
            if prof is not probe._prof:
                probe._yield_to_script()
            return modern_start(prof)

        def enter(prof):
            if prof.enabled:
                probe._yield_to_script()
            return legacy_enter(prof)

        modern.start, legacy.__enter__ = start, enter
