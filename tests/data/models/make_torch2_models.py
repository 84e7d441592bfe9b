"""TorchScript models scripted and saved by PyTorch 2.x, for Trainscope built on
2.x (they load and train) and on 1.13 (they are refused, naming the op 1.13
lacks). Run with the 2.x venv's python (scripts/torch2.sh installs it):

  /var/cache/trainscope/torch-2.15.0/bin/python make_torch2_models.py fixtures [DIR]
      torch2_transformer_block.pt, and one small module per way a call can
      fail to compile on 1.13 (committed here; a few KB each): an op 2.4
      added (torch2_rms_norm.pt), arguments 2.x added to an op 1.13 has, by
      keyword (torch2_to_sparse_layout.pt) and by position
      (torch2_pad_sequence_left.pt), and an op outside ATen
      (torch2_custom_op.pt: trainscope_test::twice, defined here, so
      no LibTorch has it)
  /var/cache/trainscope/torch-2.15.0/bin/python make_torch2_models.py resnets DIR
      resnet18.pt, resnet34.pt, resnet50.pt (45-100 MB: written at test time,
      tests/torch2/torchscript_models.sh, never committed)

The inputs are CIFAR-shaped (N, 3, 32, 32), the outputs 10 logits. torchvision
has no wheel for every torch release, so the ResNets are torchvision's
architecture written out here; their parameter counts at 1000 classes are
checked against torchvision's (11,689,512 / 21,797,672 / 25,557,032)."""
import os
import sys
import warnings

warnings.filterwarnings("ignore")  # torch.jit.script's deprecation, NumPy's absence
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402
from torch.nn.utils.rnn import pad_sequence  # noqa: E402


class Block(nn.Module):
    """A pre-norm transformer block on the image's 8x8 patches: LayerNorm,
    multi-head self-attention through F.scaled_dot_product_attention (the op
    PyTorch 2.0 added), an MLP, then mean-pooled tokens into a linear head."""

    def __init__(self, d_model=16, heads=2, classes=10):
        super().__init__()
        self.heads = heads
        self.embed = nn.Linear(3, d_model)
        self.pos = nn.Parameter(torch.zeros(1, 64, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(),
                                 nn.Linear(2 * d_model, d_model))
        self.head = nn.Linear(d_model, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.adaptive_avg_pool2d(x, 8).flatten(2).transpose(1, 2)  # (N, 64, 3)
        x = self.embed(x) + self.pos
        n, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        q = q.reshape(n, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.reshape(n, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.reshape(n, t, self.heads, d // self.heads).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(a.transpose(1, 2).reshape(n, t, d))
        x = x + self.mlp(self.norm2(x))
        return self.head(x.mean(dim=1))


def conv3x3(cin, cout, stride=1):
    return nn.Conv2d(cin, cout, 3, stride, 1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, cin, width, stride, downsample):
        super().__init__()
        self.conv1 = conv3x3(cin, width, stride)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(width, width)
        self.bn2 = nn.BatchNorm2d(width)
        self.downsample = downsample

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, cin, width, stride, downsample):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = conv3x3(width, width, stride)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, width * 4, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(width * 4)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return self.relu(out + identity)


class ResNet(nn.Module):
    """torchvision.models.ResNet (v1.5: the stride on the 3x3 conv)."""

    def __init__(self, block, layers, classes):
        super().__init__()
        self.inplanes = 64
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = self._layer(block, 64, layers[0], 1)
        self.layer2 = self._layer(block, 128, layers[1], 2)
        self.layer3 = self._layer(block, 256, layers[2], 2)
        self.layer4 = self._layer(block, 512, layers[3], 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512 * block.expansion, classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")

    def _layer(self, block, width, blocks, stride):
        downsample = None
        if stride != 1 or self.inplanes != width * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2d(self.inplanes, width * block.expansion, 1, stride, bias=False),
                nn.BatchNorm2d(width * block.expansion))
        layers = [block(self.inplanes, width, stride, downsample)]
        self.inplanes = width * block.expansion
        layers += [block(self.inplanes, width, 1, None) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class RmsNorm(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.rms_norm(x, [x.shape[-1]])  # aten::rms_norm, 2.4


class ToSparseLayout(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.to_sparse(dense_dim=1).to_dense()  # to_sparse(layout=, ...), 2.0


class PadSequenceLeft(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return pad_sequence([x, x], batch_first=True, padding_side="left")  # 2.5


torch.library.define("trainscope_test::twice", "(Tensor x) -> Tensor")
torch.library.impl("trainscope_test::twice", "CompositeExplicitAutograd")(lambda x: x * 2)


class CustomOp(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.trainscope_test.twice(x)


OP_FIXTURES = {
    "torch2_rms_norm.pt": RmsNorm,
    "torch2_to_sparse_layout.pt": ToSparseLayout,
    "torch2_pad_sequence_left.pt": PadSequenceLeft,
    "torch2_custom_op.pt": CustomOp,
}

RESNETS = {  # name: (block, layers, torchvision's parameter count at 1000 classes)
    "resnet18": (BasicBlock, [2, 2, 2, 2], 11_689_512),
    "resnet34": (BasicBlock, [3, 4, 6, 3], 21_797_672),
    "resnet50": (Bottleneck, [3, 4, 6, 3], 25_557_032),
}


def parameter_count(model):
    return sum(p.numel() for p in model.parameters())


def save(model, path, classes=10):
    model.eval()
    scripted = torch.jit.script(model)
    if classes:
        with torch.no_grad():
            assert scripted(torch.randn(2, 3, 32, 32)).shape == (2, classes), "not 10 logits"
    scripted.save(path)
    print(f"{path}: {parameter_count(model):,} parameters, {os.path.getsize(path):,} bytes")


def main(argv):
    if len(argv) < 2 or argv[1] not in ("fixtures", "resnets") or (argv[1] == "resnets" and len(argv) < 3):
        sys.exit(__doc__)
    out = argv[2] if len(argv) > 2 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    if argv[1] == "fixtures":
        save(Block(), os.path.join(out, "torch2_transformer_block.pt"))
        for name, module in OP_FIXTURES.items():
            save(module(), os.path.join(out, name), classes=0)
        return
    for name, (block, layers, torchvision_count) in RESNETS.items():
        count = parameter_count(ResNet(block, layers, 1000))
        assert count == torchvision_count, f"{name}: {count:,} parameters, torchvision's has {torchvision_count:,}"
        save(ResNet(block, layers, 10), os.path.join(out, name + ".pt"))


if __name__ == "__main__":
    main(sys.argv)
