"""Records a torch.profiler trace of a few ResNet-18 training steps on the GPU,
as a user of Trainscope brings one (scripts/cuda-check.sh reads it back).

Usage: python3 scripts/cuda-profile-sample.py OUT.json
"""
import sys

import torch
import torchvision
from torch.profiler import ProfilerActivity, profile, schedule


def main(path):
    device = "cuda"
    model = torchvision.models.resnet18(num_classes=10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images = torch.randn(128, 3, 224, 224, device=device)
    labels = torch.randint(0, 10, (128,), device=device)
    steps = schedule(wait=1, warmup=1, active=3, repeat=1)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], schedule=steps,
                 record_shapes=True, profile_memory=True, with_stack=True,
                 with_modules=True) as prof:
        for _ in range(6):
            with torch.autocast(device, dtype=torch.bfloat16):
                loss = torch.nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            prof.step()
    torch.cuda.synchronize()
    prof.export_chrome_trace(path)
    print("wrote", path, "torch", torch.__version__)


if __name__ == "__main__":
    main(sys.argv[1])
