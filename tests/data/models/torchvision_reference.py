"""Reference data from torchvision for the Model* tests (run by the tests with
/usr/bin/python3 when it has torch; the tests skip otherwise).

  torchvision_reference.py names OUT.json   parameter/buffer names and counts
  torchvision_reference.py parity OUT_DIR   state dicts + inputs/outputs to compare
"""
import collections
import json
import os
import sys

import torch
import torchvision


def build(model, stem, num_classes, in_channels=3):
    net = getattr(torchvision.models, model)(num_classes=num_classes)
    if stem == "cifar":
        net.conv1 = torch.nn.Conv2d(in_channels, 64, 3, 1, 1, bias=False)
        net.maxpool = torch.nn.Identity()
    return net


def names(out_path):
    result = {}
    for model in ("resnet18", "resnet34", "resnet50"):
        net = build(model, "imagenet", 1000)
        result[model] = {
            "params": [n for n, _ in net.named_parameters()],
            "buffers": [n for n, _ in net.named_buffers()],
            "param_count": sum(p.numel() for p in net.parameters()),
        }
    with open(out_path, "w") as f:
        json.dump(result, f)


def randomize_norms(net, gen):
    """Non-trivial BatchNorm statistics so eval-mode parity exercises them."""
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                c = m.num_features
                m.weight.copy_(torch.rand(c, generator=gen) + 0.5)
                m.bias.copy_(torch.randn(c, generator=gen) * 0.1)
                m.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(c, generator=gen) + 0.5)
                m.num_batches_tracked.fill_(7)


def parity(out_dir):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    cases = [("resnet18", "imagenet", 64), ("resnet18", "cifar", 32), ("resnet50", "imagenet", 64)]
    for model, stem, size in cases:
        net = build(model, stem, 10)
        randomize_norms(net, gen)
        net.eval()
        x = torch.randn(2, 3, size, size, generator=gen)
        with torch.no_grad():
            y = net(x)
        tag = f"{model}_{stem}"
        torch.save(net.state_dict(), os.path.join(out_dir, tag + ".pt"))
        torch.save({"input": x, "output": y}, os.path.join(out_dir, tag + "_io.pt"))
        if (model, stem) == ("resnet18", "cifar"):
            wrapped = collections.OrderedDict(("module." + k, v) for k, v in net.state_dict().items())
            torch.save({"epoch": 4, "state_dict": wrapped, "best_acc": 0.5},
                       os.path.join(out_dir, tag + "_nested.pt"))
            torch.jit.script(net).save(os.path.join(out_dir, tag + "_script.pt"))


if __name__ == "__main__":
    {"names": names, "parity": parity}[sys.argv[1]](sys.argv[2])
