"""The DataLoader's side of a step: the time waiting for batches, the batch, and epochs."""
import functools
import time

from torch.utils.data import dataloader

_LOADER = "_trainscope_loader"  # on an iterator: id() of the DataLoader it iterates


def install(meter):
    """Wraps every DataLoader iterator's __next__ (torch's iterators all inherit it) and
    DataLoader.__iter__ (a new pass can start an epoch). Returns an undo."""
    base, loader_class = dataloader._BaseDataLoaderIter, dataloader.DataLoader
    original_next, original_iter = base.__next__, loader_class.__iter__
    now = time.perf_counter_ns

    @functools.wraps(original_next)
    def __next__(self):
        start = now()
        try:
            batch = original_next(self)
        except StopIteration:
            meter.on_batch(start, now(), None, getattr(self, _LOADER, None), ran_out=True)
            raise
        meter.on_batch(start, now(), batch, getattr(self, _LOADER, None))
        return batch

    @functools.wraps(original_iter)
    def __iter__(self):
        meter.on_loader_iter(id(self))
        iterator = original_iter(self)
        try:
            setattr(iterator, _LOADER, id(self))
        except AttributeError:  # a custom iterator with __slots__: no epochs from it
            pass
        return iterator

    base.__next__, loader_class.__iter__ = __next__, __iter__

    def undo():
        base.__next__, loader_class.__iter__ = original_next, original_iter
    return undo


class Epochs:
    """A new pass over a DataLoader whose last pass fed steps starts an epoch. A pass of
    one batch (next(iter(loader)) each step) does not, unless the loader ran out; a loader
    that fed no step (validation) never does."""

    def __init__(self, out, rank):
        self._out, self._rank = out, rank
        self.epoch = 0
        self._fed, self._ran_out = {}, set()  # per loader, since its last pass started
        self._start = self._end = None
        self._steps = 0

    def new_pass(self, loader, t):
        fed = self._fed.get(loader, 0)
        if fed >= 2 or (fed and loader in self._ran_out):
            self.close()
            self.epoch += 1
            self._start = t
        self._fed[loader] = 0
        self._ran_out.discard(loader)

    def ran_out(self, loader):
        self._ran_out.add(loader)

    def fed(self, loader):
        self._fed[loader] = self._fed.get(loader, 0) + 1

    def step_done(self, start, end):
        if self._start is None:
            self._start = start
        self._steps += 1
        self._end = end

    def close(self):
        """The epoch's line: its steps and its time, from its start to its last step's end."""
        if self._steps:
            self._out.send({"t": "epoch", "rank": self._rank, "epoch": self.epoch,
                            "steps": self._steps,
                            "epoch_time_s": round((self._end - self._start) / 1e9, 6)})
        self._steps = 0
        self._fed.clear()
        self._ran_out.clear()
