#!/usr/bin/env python3
"""Writes a PyTorch CUDA allocator snapshot in _dump_snapshot's format from a
seed, with the figures PyTorch's viewers would show (a sidecar JSON): the
test data and benchmark inputs of Trainscope's snapshot reader (#48).

The object graph is built the way PyTorch builds it, so that pickle memoizes
what PyTorch's pickles memoize: one dict per distinct frame, one list per
distinct traceback shared by every entry with that stack, one string per key.
A toy caching allocator makes the events: segments of 2 MiB (small) and 20
MiB or more (large), blocks rounded to 512 bytes carved from the newest
segment of their pool, frees
requested and completed (sometimes later, as record_stream does), segments
freed by empty_cache, an occasional OOM, and the first entries cut off as a
full ring buffer cuts them, so that some frees have no alloc.

    make_snapshot.py OUT.pickle [--seed N] [--entries N] [--protocol 2|4|5]
                     [--devices N] [--expected OUT.json]

Stdlib only. The expected figures follow torch/cuda/_memory_viz.py and
MemoryViz.js's rules (docs/memory-snapshots.md): segsum's reserved and
allocated, the Active Memory Timeline's peak (time = entry index, only
free_completed ends a block, allocations alive before the trace count from
the start), the stacks alive at that peak, and the peak of reserved memory.
"""
import argparse
import json
import pickle
import random

KIB, MIB = 1024, 1024 * 1024


def frame_pool(rng, count):
    user_files = ["/home/user/project/train.py", "/home/user/project/model.py",
                  "/home/user/project/data.py"]
    torch_files = ["/usr/lib/python3/site-packages/torch/nn/modules/conv.py",
                   "/usr/lib/python3/site-packages/torch/nn/modules/linear.py",
                   "/usr/lib/python3/site-packages/torch/nn/functional.py",
                   "/usr/lib/python3/site-packages/torch/optim/adam.py",
                   "/usr/lib/python3/site-packages/torch/autograd/graph.py"]
    names = ["forward", "backward", "step", "_conv_forward", "linear", "relu", "train_step",
             "main", "<module>", "_call_impl", "layer_norm", "attention", "mlp", "loss_fn"]
    frames = []
    for i in range(count):
        files = user_files if i % 3 == 0 else torch_files
        frames.append({"name": rng.choice(names) + ("" if i < 40 else f"_{i}"),
                       "filename": rng.choice(files), "line": rng.randrange(1, 2000)})
    return frames


def stack_pool(rng, frames, count):
    outer = frames[:4]  # main -> train_step -> ... shared by every stack
    stacks = [[]]  # the shared empty list: "no frames"
    for _ in range(count):
        depth = rng.randrange(2, 24)
        leaf = [rng.choice(frames) for _ in range(depth)]
        stacks.append(leaf + list(reversed(outer)))  # innermost first
    return stacks


class Allocator:
    def __init__(self, rng, stacks, device, entries, keep_from):
        self.rng, self.stacks, self.device = rng, stacks, device
        self.segments = []  # dicts in the snapshot's shape, blocks kept in order
        self.trace = []
        self.live = {}  # addr -> (block, segment)
        self.live_addrs = []  # the same addresses, for a choice in O(1)
        self.live_at = {}  # addr -> its place in live_addrs
        self.open = {}  # segment type -> the segment blocks are carved from
        self.pending = []  # freed by the program, not yet completed
        self.next_address = 0x7F0000000000 + device * 0x1000000000
        self.time = 1_700_000_000_000_000
        self.entries, self.keep_from = entries, keep_from

    def event(self, action, addr, size, stack, key="addr"):
        self.time += self.rng.randrange(1, 50)
        self.trace.append({"action": action, key: addr, "size": size, "stream": 0,
                           "time_us": self.time, "frames": stack})

    def new_segment(self, size, stack):
        seg = {"device": self.device, "address": self.next_address, "total_size": size,
               "allocated_size": 0, "active_size": 0, "requested_size": 0, "stream": 0,
               "segment_type": "large" if size > 2 * MIB else "small",
               "segment_pool_id": (0, 0), "is_expandable": False, "frames": stack,
               "blocks": [], "_used": 0}
        self.next_address += size + 2 * MIB
        self.segments.append(seg)
        self.event("segment_alloc", seg["address"], size, stack)
        return seg

    def alloc(self):
        small = self.rng.random() < 0.6
        requested = self.rng.randrange(1, 1 * MIB) if small else self.rng.randrange(1 * MIB, 64 * MIB)
        size = (requested + 511) // 512 * 512
        stack = self.rng.choice(self.stacks[1:]) if self.rng.random() < 0.95 else self.stacks[0]
        kind = "small" if small else "large"
        seg = self.open.get(kind)
        if seg is None or seg["total_size"] - seg["_used"] < size:
            seg_size = 2 * MIB if small else max(20 * MIB, (size + 2 * MIB - 1) // (2 * MIB) * 2 * MIB)
            seg = self.new_segment(seg_size, stack)
            self.open[kind] = seg
        block = {"address": seg["address"] + seg["_used"], "size": size,
                 "requested_size": requested, "state": "active_allocated", "frames": stack}
        seg["_used"] += size
        seg["blocks"].append(block)
        self.live[block["address"]] = (block, seg)
        self.live_at[block["address"]] = len(self.live_addrs)
        self.live_addrs.append(block["address"])
        self.event("alloc", block["address"], size, stack)

    def free(self):
        addr = self.live_addrs[self.rng.randrange(len(self.live_addrs))]
        block, _ = self.live.pop(addr)
        at, last = self.live_at.pop(addr), self.live_addrs.pop()
        if last != addr:
            self.live_addrs[at] = last
            self.live_at[last] = at
        self.event("free_requested", addr, block["size"], block["frames"])
        if self.rng.random() < 0.1:  # record_stream: completed later
            block["state"] = "active_pending_free"
            self.pending.append(block)
        else:
            block["state"] = "inactive"
            self.event("free_completed", addr, block["size"], block["frames"])

    def complete_pending(self):
        for block in self.pending:
            block["state"] = "inactive"
            self.event("free_completed", block["address"], block["size"], block["frames"])
        self.pending = []

    def empty_cache(self):
        kept = []
        for seg in self.segments:
            if all(b["state"] == "inactive" for b in seg["blocks"]):
                self.event("segment_free", seg["address"], seg["total_size"], seg["frames"])
                if self.open.get(seg["segment_type"]) is seg:
                    del self.open[seg["segment_type"]]
            else:
                kept.append(seg)
        self.segments = kept

    def run(self):
        while len(self.trace) < self.entries:
            r = self.rng.random()
            if r < 0.52 or not self.live:
                self.alloc()
            elif r < 0.97:
                self.free()
            elif r < 0.985:
                self.complete_pending()
            elif r < 0.995:
                self.empty_cache()
            else:
                self.event("oom", self.rng.randrange(0, 512 * MIB), self.rng.randrange(64 * MIB, 8192 * MIB),
                           self.rng.choice(self.stacks), key="device_free")
        # The ring buffer kept the last entries only.
        self.trace = self.trace[self.keep_from:]
        for seg in self.segments:
            used = seg.pop("_used")
            if used < seg["total_size"]:
                seg["blocks"].append({"address": seg["address"] + used, "size": seg["total_size"] - used,
                                      "requested_size": 0, "state": "inactive", "frames": self.stacks[0]})
            active = [b for b in seg["blocks"] if b["state"] != "inactive"]
            seg["allocated_size"] = sum(b["size"] for b in seg["blocks"] if b["state"] == "active_allocated")
            seg["active_size"] = sum(b["size"] for b in active)
            seg["requested_size"] = sum(b["requested_size"] for b in active)


def frame_text(f):
    return f'{f["filename"].rsplit("/", 1)[-1]}:{f["line"]}:{f["name"]}'


def timeline(device_trace, segments):
    """The Active Memory Timeline's totals (MemoryViz.js process_alloc_data)."""
    initially, live, actions = [], {}, []
    for i, e in enumerate(device_trace):
        if e["action"] == "alloc":
            live[e["addr"]] = e
            actions.append((i, +1, e))
        elif e["action"] in ("free_completed", "free") :
            if e["addr"] in live:
                actions.append((i, -1, live.pop(e["addr"])))
            else:
                initially.append((e["size"], e["frames"]))
                actions.append((i, -1, e))
    for seg in segments:
        for b in seg["blocks"]:
            if b["state"] == "active_allocated" and b["address"] not in live:
                initially.append((b["requested_size"], b["frames"]))
    total = sum(s for s, _ in initially)
    peak, peak_at = total, -1
    for i, sign, e in actions:
        total += sign * e["size"]
        if total > peak:
            peak, peak_at = total, i
    return initially, peak, peak_at


def peak_stacks(device_trace, segments, peak_at):
    """Bytes alive at the peak, by stack (the outermost frame first, joined by ';')."""
    initially, live, ended = [], {}, set()
    for i, e in enumerate(device_trace):
        if e["action"] == "alloc":
            live[e["addr"]] = (i, e)
        elif e["action"] == "free_completed":
            if e["addr"] in live:
                j, _ = live.pop(e["addr"])
                if i <= peak_at:
                    ended.add(j)
            else:
                if i > peak_at:
                    initially.append((e["size"], e["frames"]))
    open_addrs = set(live)
    for seg in segments:
        for b in seg["blocks"]:
            if b["state"] == "active_allocated" and b["address"] not in open_addrs:
                initially.append((b["requested_size"], b["frames"]))
    by_stack = {}
    def add(size, frames):
        key = ";".join(frame_text(f) for f in reversed(frames)) or "<no frames>"
        by_stack[key] = by_stack.get(key, 0) + size
    for size, frames in initially:
        add(size, frames)
    for i, e in enumerate(device_trace):
        if i > peak_at:
            break
        if e["action"] == "alloc" and i not in ended:
            add(e["size"], e["frames"])
    return sorted(by_stack.items(), key=lambda kv: (-kv[1], kv[0]))


def reserved_peak(device_trace, segments):
    end = sum(s["total_size"] for s in segments)
    delta = {"segment_alloc": 1, "segment_map": 1, "segment_free": -1, "segment_unmap": -1}
    start = end - sum(delta.get(e["action"], 0) * e["size"] for e in device_trace)
    total, peak = start, start
    for e in device_trace:
        total += delta.get(e["action"], 0) * e["size"]
        peak = max(peak, total)
    return peak


def expected(snapshot):
    out = {"devices": []}
    for device, trace in enumerate(snapshot["device_traces"]):
        segs = [s for s in snapshot["segments"] if s["device"] == device]
        _, peak, peak_at = timeline(trace, segs)
        by_state = {}
        for s in segs:
            for b in s["blocks"]:
                by_state[b["state"]] = by_state.get(b["state"], 0) + b["size"]
        out["devices"].append({
            "device": device, "segments": len(segs), "entries": len(trace),
            "reserved_bytes": sum(s["total_size"] for s in segs),
            "allocated_bytes": sum(b["requested_size"] for s in segs for b in s["blocks"]
                                   if b["state"] == "active_allocated"),
            "bytes_by_state": by_state,
            "peak_allocated_bytes": peak, "peak_entry": peak_at,
            "peak_reserved_bytes": reserved_peak(trace, segs),
            "ooms": sum(1 for e in trace if e["action"] == "oom"),
            "top_stacks_at_peak": peak_stacks(trace, segs, peak_at)[:10],
        })
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--protocol", type=int, default=4, choices=[2, 3, 4, 5])
    parser.add_argument("--devices", type=int, default=1)
    parser.add_argument("--expected")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    frames = frame_pool(rng, 120)
    stacks = stack_pool(rng, frames, 300)
    snapshot = {"segments": [], "device_traces": [],
                "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
                                       "garbage_collection_threshold": 0.0,
                                       "expandable_segments": False,
                                       "roundup_power2_divisions": {"1": 0, "2": 0}},
                "external_annotations": []}
    for device in range(args.devices):
        a = Allocator(rng, stacks, device, args.entries, keep_from=args.entries // 10)
        a.run()
        snapshot["segments"] += a.segments
        snapshot["device_traces"].append(a.trace)
    with open(args.out, "wb") as f:
        pickle.dump(snapshot, f, protocol=args.protocol)
    if args.expected:
        with open(args.expected, "w") as f:
            json.dump(expected(snapshot), f, indent=1)


if __name__ == "__main__":
    main()
