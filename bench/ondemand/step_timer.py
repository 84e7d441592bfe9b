"""Times the steps of a small CPU training loop (bench/ondemand/polled_vs_not.sh).

Usage: step_timer.py STEPS
Prints one line: the median and the 95th percentile of the step times (ms)
after the first 20 steps, and the number of steps timed.
"""
import statistics
import sys
import time

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(128, 256), torch.randint(0, 10, (128,))
times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    times.append((time.perf_counter() - start) * 1e3)
timed = sorted(times[20:])
print("%.4f %.4f %d" % (statistics.median(timed), timed[int(0.95 * (len(timed) - 1))], len(timed)))
