"""Regenerates the small checked-in weights fixtures of ModelStateDictTest.cpp.
Run from this folder with a Python that has torch: /usr/bin/python3 make_fixtures.py
The tests check the values below, so keep them in sync.
"""
import collections

import torch


def dtypes():
    base = torch.arange(20, dtype=torch.float32)
    return collections.OrderedDict([
        ("f32", torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.5),
        ("f64", torch.arange(4, dtype=torch.float64) / 4),
        ("f16", torch.arange(4, dtype=torch.float16) * 0.25),
        ("bf16", torch.arange(4, dtype=torch.bfloat16) * 0.5),
        ("i64", torch.arange(5, dtype=torch.int64) - 2),
        ("i32", torch.arange(3, dtype=torch.int32) * 7),
        ("u8", torch.arange(4, dtype=torch.uint8) * 60),
        ("bool", torch.tensor([True, False, True])),
        ("transposed", torch.arange(12, dtype=torch.float32).reshape(3, 4).t()),
        ("base", base),
        ("view", base[5:15].view(2, 5)),  # shares base's storage at offset 5
        ("scalar", torch.tensor(3.5)),
        ("empty", torch.zeros(0, 3)),
        ("note", "not a tensor"),
    ])


def head():
    return collections.OrderedDict([
        ("module.fc.weight", torch.arange(6, dtype=torch.float32).reshape(2, 3)),
        ("module.fc.bias", torch.tensor([1.0, 2.0])),
    ])


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, bias=False)
        self.bn = torch.nn.BatchNorm2d(4)
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


class NoNorm(torch.nn.Module):
    """A small classifier without BatchNorm for the data-parallel tests: with
    it, two ranks' gradients average to exactly one process's on the whole
    batch (DistributedCliTest.cpp)."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc1 = torch.nn.Linear(8 * 4 * 4, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x):
        x = torch.nn.functional.adaptive_avg_pool2d(torch.relu(self.conv(x)), 4)
        return self.fc2(torch.relu(self.fc1(torch.flatten(x, 1))))


class NanAfter(NoNorm):
    """NoNorm whose output turns NaN from its fifth training forward on (a
    counter buffer, broadcast like any buffer in a data-parallel job): the
    non-finite loss tests (NonFiniteLossTest.cpp) stop or skip at step 4."""

    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(1, dtype=torch.int64))

    def forward(self, x):
        x = torch.nn.functional.adaptive_avg_pool2d(torch.relu(self.conv(x)), 4)
        out = self.fc2(torch.relu(self.fc1(torch.flatten(x, 1))))
        if self.training:
            self.calls.add_(1)
            if bool(self.calls[0] > 4):
                out = out * float("nan")
        return out


def overflowing_view(path):
    """A state dict whose tensor claims size (2**62 + 1,) and stride (4,) over a
    storage of 4 floats: (size - 1) * stride wraps to 0 in int64 arithmetic, so a
    bounds check without overflow tests lets it through. torch.save cannot write
    this, so the saved pickle is edited (the zip is rewritten: its CRCs change)."""
    import zipfile
    torch.save(collections.OrderedDict(w=torch.zeros(4)), path)
    with zipfile.ZipFile(path) as z:
        records = [(info, z.read(info)) for info in z.infolist()]
    size_stride = b"K\x04\x85q\tK\x01\x85q\n"  # (4,) (1,)
    huge = b"\x8a\x08" + (2 ** 62 + 1).to_bytes(8, "little") + b"\x85q\tK\x04\x85q\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for info, data in records:
            if info.filename.endswith("data.pkl"):
                assert size_stride in data, "torch.save wrote another pickle; update the edit"
                data = data.replace(size_stride, huge)
            z.writestr(info.filename, data)


def newer_op_script(source, path):
    """A TorchScript module as a newer PyTorch might save it: its code calls an
    op this LibTorch does not have (torch.relu renamed), so it does not compile
    at load. The zip is rewritten with that one code file edited."""
    import zipfile
    with zipfile.ZipFile(source) as z:
        records = [(info, z.read(info)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for info, data in records:
            name = info.filename.replace("tiny_script/", "newer_op_script/", 1)
            if name == "newer_op_script/code/__torch__.py":
                assert b"torch.relu(" in data, "torch.jit.script wrote other code; update the edit"
                data = data.replace(b"torch.relu(", b"torch.relu_from_pytorch_9(")
            z.writestr(name, data)


def main():
    torch.manual_seed(0)
    torch.save(dtypes(), "dtypes.pt")
    checkpoint = {"epoch": 3, "state_dict": head(), "tags": ["a", "b"], "big": 2 ** 70,
                  "optimizer": {"lr": 0.1, "betas": (0.9, 0.999), "state": {0: {"step": torch.tensor(5.0)}}}}
    torch.save(checkpoint, "checkpoint_p4.pt", pickle_protocol=4)
    torch.save({"model": head()}, "model_key_p5.pt", pickle_protocol=5)
    linear = torch.nn.Linear(3, 2)
    with torch.no_grad():
        linear.weight.copy_(torch.arange(6, dtype=torch.float32).reshape(2, 3))
        linear.bias.copy_(torch.tensor([1.0, 2.0]))
    torch.save(linear.state_dict(keep_vars=True), "keep_vars.pt")
    torch.save(head(), "legacy.pt", _use_new_zipfile_serialization=False)
    torch.save(linear, "whole_module.pt")
    overflowing_view("overflowing_view.pt")

    tiny = Tiny()
    with torch.no_grad():
        tiny.bn.running_mean.copy_(torch.tensor([0.1, -0.2, 0.3, 0.0]))
        tiny.bn.running_var.copy_(torch.tensor([1.5, 0.5, 1.0, 2.0]))
    tiny.eval()
    torch.jit.script(tiny).save("tiny_script.pt")
    newer_op_script("tiny_script.pt", "newer_op_script.pt")
    torch.jit.script(NoNorm()).save("no_norm_script.pt")
    torch.jit.script(NanAfter()).save("nan_after_script.pt")
    x = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        torch.save({"input": x, "output": tiny(x)}, "tiny_script_io.pt")


if __name__ == "__main__":
    main()
