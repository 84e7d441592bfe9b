#!/usr/bin/env python3
"""Writes flop_counts.json: what torch.utils.flop_counter.FlopCounterMode
counts for one training step (forward, loss, backward) of the models
make_traces.py profiles, the reference Trainscope's FLOPs estimated from the
traces' input shapes are tested against (tests/torchfree/Torch2FixturesTest.cpp).

usage (from the repository root, with the pinned wheel's venv):
    /var/cache/trainscope/torch-2.15.0/bin/python tests/data/torch2/flop_counts.py

FlopCounterMode counts the matrix products and convolutions (and attention)
only, from shapes alone, so the counts do not depend on the data or on the
run: per model {op: FLOPs} over the whole step and its "total".
"""
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_traces  # noqa: E402  (the same models and inputs)


def step_counts(model, x, y):
    with FlopCounterMode(display=False) as counter:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
    counts = {str(op): int(n) for op, n in counter.get_flop_counts()["Global"].items()}
    counts["total"] = int(counter.get_total_flops())
    return dict(sorted(counts.items()))


def main():
    make_traces.seed(0)
    cnn = make_traces.SmallCnn()
    x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
    make_traces.seed(0)
    clf = make_traces.Classifier()
    tx, ty = make_traces.transformer_data()[0]
    out = {"torch": torch.__version__.split("+")[0],
           "cnn": step_counts(cnn, x, y),
           "transformer": step_counts(clf, tx, ty)}
    path = os.path.join(HERE, "flop_counts.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
