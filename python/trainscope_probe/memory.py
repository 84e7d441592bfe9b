"""Memory: the process's RSS every step, and every memory_every steps the bytes by category."""
import os
from collections.abc import Mapping

import torch

_PAGE = os.sysconf("SC_PAGE_SIZE")


class Rss:
    """Resident set size from /proc/self/statm, kept open and re-read with pread, at most
    every EVERY_NS: the read costs ~25 us after a step has cooled the caches, and RSS moves
    slowly; a step in between reports the latest reading."""
    EVERY_NS = 100_000_000

    def __init__(self):
        self._last, self._at = None, -self.EVERY_NS
        try:
            self._fd = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self._fd = None

    def read(self, now_ns):
        if now_ns - self._at >= self.EVERY_NS and self._fd is not None:
            self._at = now_ns
            try:
                self._last = int(os.pread(self._fd, 128, 0).split()[1]) * _PAGE
            except (OSError, IndexError, ValueError):
                self._last = None
        return self._last


def tensors(value, depth=0):
    """The tensors in nested tuples, lists and mappings (a dict, a BatchEncoding)."""
    if isinstance(value, torch.Tensor):
        yield value
    elif depth < 6 and isinstance(value, (tuple, list, Mapping)):
        for item in value.values() if isinstance(value, Mapping) else value:
            yield from tensors(item, depth + 1)


def leading_dim(batch):
    """Samples in a batch: the leading dimension of its first tensor."""
    if type(batch) in (tuple, list) and batch and isinstance(batch[0], torch.Tensor):
        batch = batch[0]  # the common (inputs, labels): no generator
    for tensor in tensors(batch):
        return tensor.shape[0] if tensor.dim() > 0 else None
    return None


def nbytes(tensor):
    return tensor.numel() * tensor.element_size()


def categories(optimizers, input_bytes, device_peak):
    """Bytes of parameters, gradients and optimizer state of every optimizer seen (a
    parameter shared by two counted once), and of the batch. Activations are 0: they live
    from the forward to the backward and are freed within the step, so a step boundary never
    sees them, and telling them from other temporaries would take a hook on every saved
    tensor. On CUDA they are in temporary, the step's peak minus what stays; the CPU has no
    peak to measure (RSS keeps freed pages): 0."""
    seen = set()
    params = grads = state = 0
    for optimizer in list(optimizers):
        for group in optimizer.param_groups:
            for param in group["params"]:
                if id(param) not in seen:
                    seen.add(id(param))
                    params += nbytes(param)
                    grads += nbytes(param.grad) if param.grad is not None else 0
        for per_param in optimizer.state.values():
            state += sum(nbytes(t) for t in tensors(per_param))
    input_bytes = input_bytes or 0
    temporary = 0 if device_peak is None else max(
        0, device_peak - params - grads - state - input_bytes)
    return {"parameter_bytes": params, "gradient_bytes": grads, "optimizer_state_bytes": state,
            "input_bytes": input_bytes, "activation_bytes": 0, "temporary_bytes": temporary}
