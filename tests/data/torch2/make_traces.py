#!/usr/bin/env python3
"""Records the PyTorch 2.x torch.profiler traces checked in next to this script.

usage (from the repository root, with the pinned wheel's venv, CPU only):
    /var/cache/trainscope/torch-2.15.0/bin/python tests/data/torch2/make_traces.py [OUT_DIR] [NAME ...]

NAME is any of cnn, loader, ddp, memory, transformer (default: all). OUT_DIR
defaults to this script's folder. Every trace is a real training loop
(forward, loss, backward, optimizer step) of a small model defined here in
plain torch, on the CPU, with one intra-op thread and seeded weights and data,
profiled by torch.profiler (Kineto) and exported with export_chrome_trace,
then gzipped (mtime 0):

  cnn_span{1,2}.pt.trace.json.gz   a conv/bn/relu/pool/linear CNN with
      record_shapes, profile_memory, with_stack, with_modules and with_flops,
      schedule(wait=1, warmup=1, active=2, repeat=2) through on_trace_ready:
      two files of two ProfilerStep#s each (#2, #3 and #6, #7), every step
      with "forward", "loss", "backward" and "optimizer" record_function ranges.
  loader.pt.trace.json.gz          an MLP fed by a DataLoader with
      num_workers=2 (the enumerate(DataLoader)#...__next__ ranges), with
      record_shapes; schedule(wait=1, warmup=1, active=3): ProfilerStep#2-#4.
  ddp_gloo/rank{0,1}.pt.trace.json.gz  a two-rank gloo DistributedDataParallel
      job (torch.multiprocessing.spawn, a file:// store), the profiler on
      both ranks, schedule(wait=1, warmup=1, active=2): distributedInfo,
      the gradient all-reduces and an all_reduce of the loss per step.
  memory.pt.trace.json.gz and memory.raw.json.gz  three steps of a small CNN
      (Adam) with record_shapes, profile_memory and with_stack and no schedule
      (so no ProfilerStep# ranges: prof.step() records them only under a
      schedule), and
      export_memory_timeline(..., device="cpu") of the same profile (the raw
      rows: [time_ns, action, bytes, category]); memory.timeline.json.gz: the
      same profile's export_memory_timeline plot form ([times_us, sizes by
      category], torch's own sums), which the tests check Trainscope against.
  transformer.pt.trace.json.gz     a one-layer nn.TransformerEncoder (multi-head
      attention through scaled_dot_product_attention) with record_shapes and
      with_flops, schedule(wait=1, warmup=1, active=2).
"""
import gzip
import os
import shutil
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

HERE = os.path.dirname(os.path.abspath(__file__))


def seed(value=0):
    torch.manual_seed(value)
    torch.set_num_threads(1)


def write_gz(src, dst):
    """dst.gz of src with mtime 0, so that the same bytes gzip the same."""
    with open(src, "rb") as fin, open(dst, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as fout:
            shutil.copyfileobj(fin, fout)


def export_gz(prof, dst):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        write_gz(path, dst)
    print("wrote", dst, os.path.getsize(dst), "bytes")


class SmallCnn(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Linear(16 * 4 * 4, classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def train_step(model, opt, x, y):
    with record_function("forward"):
        out = model(x)
    with record_function("loss"):
        loss = F.cross_entropy(out, y)
    with record_function("backward"):
        loss.backward()
    with record_function("optimizer"):
        opt.step()
        opt.zero_grad(set_to_none=True)
    return loss


def record_cnn(out):
    seed(0)
    model = SmallCnn()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data = [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(4)]
    spans = []

    def on_ready(prof):
        spans.append(prof)
        export_gz(prof, os.path.join(out, "cnn_span%d.pt.trace.json.gz" % len(spans)))

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, profile_memory=True,
                 with_stack=True, with_modules=True, with_flops=True,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
                 on_trace_ready=on_ready) as prof:
        for step in range(8):
            x, y = data[step % len(data)]
            train_step(model, opt, x, y)
            prof.step()
    assert len(spans) == 2, len(spans)


class Blobs(torch.utils.data.Dataset):
    """Seeded Gaussian blobs, one per class, each item made on demand (so the
    workers do some work)."""

    def __init__(self, n=256, features=32, classes=4):
        g = torch.Generator().manual_seed(1)
        self.centers = torch.randn(classes, features, generator=g) * 2
        self.labels = torch.randint(0, classes, (n,), generator=g)
        self.noise = torch.randn(n, features, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        y = self.labels[i]
        return self.centers[y] + self.noise[i], y


def record_loader(out):
    seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(Blobs(), batch_size=16, shuffle=True, num_workers=2,
                                         generator=torch.Generator().manual_seed(2))
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                 schedule=schedule(wait=1, warmup=1, active=3, repeat=1)) as prof:
        for step, (x, y) in enumerate(loader):
            if step == 5:
                break
            train_step(model, opt, x, y)
            prof.step()
    export_gz(prof, os.path.join(out, "loader.pt.trace.json.gz"))


def ddp_rank(rank, world, store, out):
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    seed(0)
    dist.init_process_group("gloo", init_method="file://" + store, rank=rank, world_size=world)
    model = DDP(nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(10 + rank)  # each rank its own shard
    data = [(torch.randn(16, 64, generator=g), torch.randint(0, 10, (16,), generator=g))
            for _ in range(4)]

    def on_ready(prof):
        export_gz(prof, os.path.join(out, "rank%d.pt.trace.json.gz" % rank))

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
                 on_trace_ready=on_ready) as prof:
        for step in range(4):
            x, y = data[step]
            loss = train_step(model, opt, x, y)
            with record_function("all_reduce_loss"):
                mean = loss.detach().clone()
                dist.all_reduce(mean)
                mean /= world
            prof.step()
    dist.barrier()
    dist.destroy_process_group()


def record_ddp(out):
    import torch.multiprocessing as mp

    folder = os.path.join(out, "ddp_gloo")
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(ddp_rank, args=(2, os.path.join(tmp, "store"), folder), nprocs=2, join=True)


def record_memory(out):
    seed(0)
    model = SmallCnn()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(3)]
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, profile_memory=True,
                 with_stack=True) as prof:
        for x, y in data:
            train_step(model, opt, x, y)
            prof.step()
    export_gz(prof, os.path.join(out, "memory.pt.trace.json.gz"))
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "memory.raw.json")
        # export_memory_timeline gzips through text mode with the time in the
        # header; write the raw rows plainly and gzip them here (mtime 0).
        prof.export_memory_timeline(raw + ".gz", device="cpu")
        with gzip.open(raw + ".gz", "rb") as fin, open(raw, "wb") as fout:
            shutil.copyfileobj(fin, fout)
        dst = os.path.join(out, "memory.raw.json.gz")
        write_gz(raw, dst)
        print("wrote", dst, os.path.getsize(dst), "bytes")
        # torch's own sums of the same rows ([times_us, sizes]: per time a
        # leading 0, then the eight categories), the reference of the tests.
        plot = os.path.join(tmp, "memory.timeline.json")
        prof.export_memory_timeline(plot, device="cpu")
        dst = os.path.join(out, "memory.timeline.json.gz")
        write_gz(plot, dst)
        print("wrote", dst, os.path.getsize(dst), "bytes")


TRANSFORMER_D_MODEL, TRANSFORMER_CLASSES = 32, 5


class Classifier(nn.Module):
    """A one-layer TransformerEncoder and a linear head on the mean token."""

    def __init__(self, d_model=TRANSFORMER_D_MODEL, classes=TRANSFORMER_CLASSES):
        super().__init__()
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64, dropout=0.0,
                                       batch_first=True), num_layers=1, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, classes)

    def forward(self, x):
        return self.head(self.encoder(x).mean(dim=1))


def transformer_data():
    return [(torch.randn(4, 12, TRANSFORMER_D_MODEL), torch.randint(0, TRANSFORMER_CLASSES, (4,)))
            for _ in range(4)]


def record_transformer(out):
    seed(0)
    clf = Classifier()
    opt = torch.optim.AdamW(clf.parameters(), lr=1e-3)
    data = transformer_data()
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_flops=True,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1)) as prof:
        for x, y in data:
            train_step(clf, opt, x, y)
            prof.step()
    export_gz(prof, os.path.join(out, "transformer.pt.trace.json.gz"))


RECORDERS = {"cnn": record_cnn, "loader": record_loader, "ddp": record_ddp,
             "memory": record_memory, "transformer": record_transformer}


def main(argv):
    out = argv[1] if len(argv) > 1 else HERE
    names = argv[2:] or list(RECORDERS)
    os.makedirs(out, exist_ok=True)
    print("torch", torch.__version__)
    for name in names:
        RECORDERS[name](out)


if __name__ == "__main__":
    main(sys.argv)
