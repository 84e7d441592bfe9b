#!/usr/bin/env python3
"""Writes steps_a.json and steps_b.json: two hand-made torch.profiler (Kineto)
traces of two steps each for tests/torchfree/TraceDiffTest.cpp. Every time is
chosen so that the expected diff can be worked out by hand (see the test).
Run from this folder; the output is committed."""
import json

HOST = {"pid": 1, "tid": 1}
GPU = {"pid": 0, "tid": 7}


class Writer:
    def __init__(self):
        self.events = []
        self.next_id = 1

    def op(self, name, ts, dur, ext=None):
        args = {"External id": ext} if ext is not None else {}
        self.events.append({"ph": "X", "cat": "cpu_op", "name": name, **HOST,
                            "ts": ts, "dur": dur, "args": args})

    def launch(self, name, ts, dur, kernel, k_ts, k_dur):
        """An op [ts, ts+dur] whose runtime call (at ts+5, 10 us) launches
        `kernel` at [k_ts, k_ts+k_dur] on the GPU."""
        ext = self.next_id
        corr = 1000 + ext
        self.next_id += 1
        self.op(name, ts, dur, ext)
        self.events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", **HOST,
                            "ts": ts + 5, "dur": 10,
                            "args": {"External id": ext, "correlation": corr}})
        self.events.append({"ph": "X", "cat": "kernel", "name": kernel, **GPU,
                            "ts": k_ts, "dur": k_dur,
                            "args": {"External id": ext, "correlation": corr, "device": 0,
                                     "stream": 7}})


def trace_a():
    w = Writer()
    for step in (1, 2):
        b = (step - 1) * 1000
        w.op("ProfilerStep#%d" % step, b, 1000)
        w.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", b, 300)
        w.launch("aten::conv2d", b + 300, 100, "conv_kernel", b + 330, 200)
        w.launch("aten::relu", b + 400, 50, "relu_kernel", b + 530, 50)
        w.launch("aten::add", b + 450, 40, "add_kernel", b + 620, 15)
        w.launch("aten::zero_", b + 490, 30, "zero_kernel", b + 580, 40)
        w.op("Optimizer.step#SGD.step", b + 700, 200)
        w.launch("aten::mul_", b + 710, 50, "mul_kernel", b + 760, 30)
    return w.events


def trace_b():
    w = Writer()
    for step in (1, 2):
        b = (step - 1) * 800
        w.op("ProfilerStep#%d" % step, b, 800)
        w.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", b, 100)
        w.launch("aten::conv2d", b + 100, 100, "conv_kernel", b + 130, 300)
        w.launch("aten::relu", b + 200, 30, "relu_kernel", b + 430, 50)
        w.launch("aten::relu", b + 230, 30, "relu_kernel", b + 480, 50)
        w.launch("aten::sub", b + 260, 20, "sub_kernel", b + 530, 20)
        w.launch("aten::zero_", b + 280, 30, "zero_kernel", b + 550, 45)
        w.op("Optimizer.step#SGD.step", b + 600, 180)
        w.launch("aten::mul_", b + 610, 40, "mul_kernel", b + 650, 10)
    return w.events


def write(path, events):
    with open(path, "w") as f:
        f.write('{"schemaVersion": 1, "traceEvents": [\n')
        f.write(",\n".join(json.dumps(e) for e in events))
        f.write("\n]}\n")


write("steps_a.json", trace_a())
write("steps_b.json", trace_b())
