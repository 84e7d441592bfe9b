"""The steps: PyTorch's global hooks find them and split each into data, forward, backward
and optimizer time, without a change to the script."""
import functools
import math
import time
import weakref

import torch
from torch.nn.modules.module import register_module_forward_pre_hook
from torch.optim.optimizer import (register_optimizer_step_post_hook,
                                   register_optimizer_step_pre_hook)

from . import device, loader, memory

now = time.perf_counter_ns

# Written every step, so formatted by hand: a third of json.dumps's time (code between two
# steps runs with caches the training has cooled: slower than in a micro-benchmark).
_STEP_LINE = ('{"t":"step","rank":%d,"step":%d,"epoch":%d,"wall_s":%.6f,"step_ms":%.4f,'
              '"data_ms":%.4f,"forward_ms":%.4f,"backward_ms":%.4f,"optimizer_ms":%.4f,'
              '"batch":%s,"loss":%s,"lr":%s,"rss":%s,"dev_alloc":%s,"dev_reserved":%s,'
              '"dev_peak":%s,"profiled":%s}\n')


def _float(number):
    """Not a finite number (None, a NaN loss, an odd lr) is null: JSON has no NaN."""
    try:
        value = float(number)
    except (TypeError, ValueError):
        return "null"
    return repr(value) if math.isfinite(value) else "null"


class StepMeter:
    def __init__(self, out, rank, profiling, slow, config, start_ns):
        self._out, self._rank, self._profiling, self._slow = out, rank, profiling, slow
        self._memory_every, self._trace_dir = config.memory_every, config.trace_dir
        self._trace_steps = config.profile["active"]
        # The profiler is started when tracing is on or may be asked for (a socket to
        # Trainscope, or catch_slow); idle it still costs ~10 us a step.
        self._want_profiler = bool(config.profile["enabled"] or config.socket or slow)
        self._t0, self._rss = start_ns, memory.Rss()
        self._epochs = loader.Epochs(out, rank)
        self.step = self.overhead_ns = self.first_step_overhead_ns = 0
        # The step's start: the end of the last step's hook; step 0's, the first sign of
        # training (a pass over a loader, a batch, a forward, a backward or a step).
        self._start = None
        self._data_ns = self._fwd_ns = self._bwd_ns = self._opt_ns = 0
        self._fwd_start = self._bwd_start = self._opt_start = None
        self._samples = None  # of the batches backward() ran on in this step
        self._pending_samples = self._pending_loader = None  # the last batch, until used
        self._input_bytes = self._loss = None
        self._armed = False
        self._in_backward, self._opt_depth, self._loader_started = False, 0, False
        self._leader = self._follower = None  # weak references to optimizers
        self._optimizers = weakref.WeakSet()
        self._device_known = self._cuda = self._broken = False
        self._timer = None
        self._undo = []

    def install(self):
        for register, hook in ((register_optimizer_step_pre_hook, self._optimizer_pre),
                               (register_optimizer_step_post_hook, self._optimizer_post)):
            self._undo.append(register(hook).remove)
        self._undo.append(loader.install(self))
        # Tensor.backward calls torch.autograd.backward (looked up at each call): one
        # wrapper sees both, with one Python call less a step than two wrappers.
        original = torch.autograd.backward
        torch.autograd.backward = self._wrap_backward(original)
        self._undo.append(functools.partial(setattr, torch.autograd, "backward", original))
        # A global forward pre-hook takes every module call off PyTorch's fast path: it is
        # in the hooks' dict only while a forward is awaited, and out at its first call.
        # Put and taken by hand with its handle's id: a dict's set and pop, where a new
        # registration each step creates a handle (measured: ~10 us, caches cold after a
        # backward).
        handle = register_module_forward_pre_hook(self._on_forward)
        self._undo.append(handle.remove)
        self._fwd_hooks, self._fwd_id = handle.hooks_dict_ref(), handle.id
        self._fwd_hook, self._armed = self._fwd_hooks[self._fwd_id], True

    def uninstall(self):
        self._disarm_forward()
        self._broken = True  # nothing arms the forward hook again
        for undo in reversed(self._undo):
            undo()
        self._undo = []

    def _arm_forward(self):
        if not self._armed and not self._broken:
            self._fwd_hooks[self._fwd_id] = self._fwd_hook
            self._armed = True

    def _disarm_forward(self):
        if self._armed:
            self._fwd_hooks.pop(self._fwd_id, None)
            self._armed = False

    # ---- the data loader (loader.py) ----

    def on_loader_iter(self, key):
        t = now()
        if self._start is None:
            self._start = t
        self._epochs.new_pass(key, t)
        self._loader_started = True
        self.overhead_ns += now() - t

    def on_batch(self, start, end, batch, key, ran_out=False):
        if self._start is None:
            self._start = start
        self._data_ns += end - start
        if ran_out:
            self._epochs.ran_out(key)
            return
        self._pending_samples, self._pending_loader = memory.leading_dim(batch), key
        if self._memory_every and self.step % self._memory_every == 0:
            self._input_bytes = sum(memory.nbytes(t) for t in memory.tensors(batch))
        # The forward is timed from the first module call after the batch arrived: what
        # ran before (an evaluation, say) is not this batch's forward.
        self._fwd_start = None
        self._arm_forward()
        self.overhead_ns += now() - end

    def _commit_batch(self):
        """The last batch was trained on: it counts in the step (several batches with
        gradient accumulation), and its loader fed a step."""
        if self._pending_loader is not None:
            self._epochs.fed(self._pending_loader)
        if self._pending_samples is not None:
            self._samples = (self._samples or 0) + self._pending_samples
        self._pending_samples = self._pending_loader = None

    # ---- forward and backward ----

    def _on_forward(self, module, args):
        t = now()
        self._disarm_forward()
        if self._start is None:
            self._start = t
        self._fwd_start = t
        if self._pending_loader is None:  # no DataLoader: the model's input is the batch
            self._pending_samples = memory.leading_dim(args)
        if self._cuda:
            self._timer.begin("forward")
        self.overhead_ns += now() - t

    def _wrap_backward(self, original):
        meter = self

        @functools.wraps(original)
        def backward(*args, **kwargs):
            # A backward within a backward (checkpointing's) is the outer one's time.
            if meter._in_backward or meter._broken:
                return original(*args, **kwargs)
            meter._backward_start(args[0] if args else kwargs.get("tensors"))
            meter._in_backward = True
            try:
                return original(*args, **kwargs)
            finally:
                meter._in_backward = False
                meter._backward_end()
        return backward

    def _backward_start(self, target):
        t = now()
        if self._start is None:
            self._start = t
        if self._fwd_start is not None:
            self._fwd_ns += t - self._fwd_start
            self._fwd_start = None
            if self._cuda:
                self._timer.end("forward")
        self._disarm_forward()  # a recomputation in backward (checkpointing) is backward
        self._bwd_start = t
        if self._cuda:
            self._timer.begin("backward")
        if isinstance(target, (tuple, list)) and len(target) == 1:
            target = target[0]
        if isinstance(target, torch.Tensor) and target.numel() == 1:
            self._loss = target  # released at the step's end; detached only if copied
        self._commit_batch()
        self.overhead_ns += now() - t

    def _backward_end(self):
        t = now()
        if self._bwd_start is not None:
            self._bwd_ns += t - self._bwd_start
            self._bwd_start = None
        if self._cuda:
            self._timer.end("backward")
        self._arm_forward()
        self.overhead_ns += now() - t

    # ---- the optimizer ----

    def _optimizer_pre(self, optimizer, args, kwargs):
        t = now()
        self._opt_depth += 1
        if self._opt_depth > 1 or self._broken:  # an optimizer wrapping another: the outer
            return
        if self._start is None:
            self._start = t
        if optimizer not in self._optimizers:  # an add() makes a weak reference each time
            self._optimizers.add(optimizer)
        if not self._device_known:
            self._first_step(optimizer)  # one-time work: not the optimizer's time
        self._opt_start = now()
        if self._cuda:
            self._timer.begin("optimizer")
        self.overhead_ns += now() - t

    def _first_step(self, optimizer):
        self._device_known = True
        params = [p for group in optimizer.param_groups for p in group["params"]][:1]
        name, description = device.describe(params[0].device if params else None)
        if name.startswith("cuda"):
            self._cuda, self._timer = True, device.CudaTimer(self._out, self._rank)
        self._out.send({"t": "device", "rank": self._rank, "device": name,
                        "device_name": description})
        if self._want_profiler:
            self._profiling.begin(cuda=self._cuda)

    def _is_step_end(self, optimizer):
        """With several optimizers (a GAN's), a step is one step() of the first optimizer
        seen, the others' step() time in its optimizer time: a step is then one iteration
        of the script's loop, with its batch. Another optimizer that steps twice without
        the first has replaced it (a new one for a second stage) and leads."""
        leader = self._leader() if self._leader is not None else None
        follower = self._follower() if self._follower is not None else None
        if leader is None or optimizer is leader or optimizer is follower:
            self._leader, self._follower = weakref.ref(optimizer), None
            return True
        self._follower = weakref.ref(optimizer)
        return False

    def _optimizer_post(self, optimizer, args, kwargs):
        t = now()
        self._opt_depth -= 1
        if self._opt_depth > 0 or self._broken:
            return
        if self._opt_start is not None:
            self._opt_ns += t - self._opt_start
            self._opt_start = None
        if self._cuda:
            self._timer.end("optimizer")
        ended = self._is_step_end(optimizer)
        if ended:
            try:
                self._finish_step(t, optimizer)
            except Exception as error:  # a bug of the probe must not stop the training
                self._broken = True
                self._disarm_forward()
                self._out.note(self._rank, "error", f"the probe stopped measuring: {error!r}")
        done = now()
        self.overhead_ns += done - t
        if ended:
            # The next step starts here: the probe's reporting (and a trace being written)
            # is not the script's time; overhead_us_per_step tells it.
            self._start = done
            if self.step == 1:
                self.first_step_overhead_ns = self.overhead_ns

    def _finish_step(self, t, optimizer):
        step, start = self.step, self._start if self._start is not None else t
        profiling = self._profiling
        busy, recorded = profiling.state()
        self._commit_batch()
        loss, self._loss = self._loss, None
        dev_alloc = dev_reserved = dev_peak = None
        if self._cuda:
            dev_alloc, dev_reserved, dev_peak = device.allocator()
            self._timer.finish(step, loss if loss is not None and loss.is_cuda else None)
        if loss is not None:
            # A CUDA loss comes in the `late` line: float() would wait for the GPU.
            loss = None if loss.is_cuda else float(loss.detach())
        lr = optimizer.param_groups[0].get("lr") if optimizer.param_groups else None
        if isinstance(lr, torch.Tensor) and lr.is_cuda:
            lr = None  # reading it would synchronise
        step_ns = t - start
        self._out.write((_STEP_LINE % (
            self._rank, step, self._epochs.epoch, (t - self._t0) / 1e9, step_ns / 1e6,
            self._data_ns / 1e6, self._fwd_ns / 1e6, self._bwd_ns / 1e6, self._opt_ns / 1e6,
            # Ints and None by %s ("None" made "null" below), floats by repr: no call each.
            self._samples, repr(loss) if type(loss) is float and loss - loss == 0 else "null",
            repr(lr) if type(lr) is float and lr - lr == 0 else _float(lr),
            self._rss.read(t), dev_alloc, dev_reserved, dev_peak,
            "true" if recorded else "false")).replace("None", "null"))
        # Counted as soon as reported: a Ctrl-C from here on (it can strike in any hook)
        # leaves the bye line and the trace agreeing with the step lines.
        self.step += 1
        self._epochs.step_done(start, t)
        profiling.step_done(step, recorded)
        if self._memory_every and step % self._memory_every == 0:
            self._out.send({"t": "memory", "rank": self._rank, "step": step,
                            **memory.categories(self._optimizers, self._input_bytes, dev_peak)})
        # Not judged: step 0 (warm-up), a step the profiler ran in, and a step that started
        # a pass over a loader (workers starting: slow, and expected).
        if self._slow and step > 0 and not busy and not self._loader_started:
            self._check_slow(step, round(step_ns / 1e6, 4))
        for message in self._out.control(t):
            steps = message.get("steps")
            if message.get("t") == "trace_next" and type(steps) is int and steps > 0:
                profiling.request(steps, step + 1)
            elif message.get("t") == "snapshot":
                device.snapshot(self._out, self._rank, self._trace_dir, step, self._cuda)
        if self._cuda:
            self._timer.poll()
        profiling.advance()
        self._data_ns = self._fwd_ns = self._bwd_ns = self._opt_ns = 0
        self._samples = self._input_bytes = self._fwd_start = None
        self._loader_started = False
        self._arm_forward()

    def _check_slow(self, step, step_ms):
        verdict = self._slow.check(step_ms)
        if verdict is not None:
            traced = self._profiling.request(self._trace_steps, step + 1) is not None
            self._out.send({"t": "slow", "rank": self._rank, "step": step, "step_ms": step_ms,
                            "median_ms": round(verdict[0], 4), "upper_ms": round(verdict[1], 4),
                            "trace_steps": self._trace_steps if traced else 0})

    def finish(self):
        """At the script's end: the hooks removed, the last epoch's line, the late lines."""
        self.uninstall()
        self._epochs.close()
        if self._cuda:
            self._timer.drain(timeout_s=2.0)
