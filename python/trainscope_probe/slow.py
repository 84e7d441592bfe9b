"""Catching a step slower than the recent ones beyond their noise (catch_slow)."""
import math
from collections import deque
from functools import lru_cache
from statistics import NormalDist

WINDOW = 50       # recent steps the noise is measured on
MIN_STEPS = 20    # fewer give too wide an interval to mean anything
CONFIDENCE = 0.999
MARGIN = 0.10     # and by more than this above the interval's upper end
# And at least this many times the recent median: a loop of very even steps (a sleep, a
# GPU's queue) has an interval so narrow that a scheduler's hiccup of a few ms leaves it;
# that is noise of the machine, not a step worth a trace.
FLOOR = 1.5


@lru_cache(maxsize=None)
def t_quantile(probability, df):
    """Student's t quantile by the Cornish-Fisher expansion around the normal one
    (Abramowitz and Stegun 26.7.5): within 1e-4 of the exact value (Trainscope's
    studentTQuantile, core/analysis/NoiseInterval.cpp) from 19 degrees of freedom on at
    0.9995, the fewest the probe uses; within 1e-3 from 10."""
    z, v = NormalDist().inv_cdf(probability), df
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z)
            / (92160 * v ** 4))


class SlowSteps:
    """A Student's t prediction interval over the log times of the recent steps (the
    ladder's noise interval, over log values too: step times are multiplicative); unlike
    an interval of the mean, a prediction interval says where one more step falls.
    Fires once a run."""

    def __init__(self):
        self._logs = deque(maxlen=WINDOW)
        self._sum = self._squares = 0.0  # running sums: O(1) a step
        self.fired = False

    def check(self, step_ms):
        """(median_ms, upper_ms) of the recent steps when this step is the slow one, else
        None. A step that is not slow joins the recent ones."""
        if step_ms <= 0 or self.fired:
            return None
        logs, n = self._logs, len(self._logs)
        if n >= MIN_STEPS:
            mean = self._sum / n
            sd = math.sqrt(max(0.0, (self._squares - n * mean * mean) / (n - 1)))
            upper_ms = math.exp(mean + t_quantile(0.5 + CONFIDENCE / 2, n - 1) * sd
                                * math.sqrt(1 + 1 / n))
            if step_ms > upper_ms * (1 + MARGIN):
                ordered = sorted(logs)
                median_ms = math.exp((ordered[(n - 1) // 2] + ordered[n // 2]) / 2)
                if step_ms > median_ms * FLOOR:
                    self.fired = True
                    return median_ms, upper_ms
        if n == WINDOW:
            self._sum -= logs[0]
            self._squares -= logs[0] * logs[0]
        logs.append(math.log(step_ms))
        self._sum += logs[-1]
        self._squares += logs[-1] * logs[-1]
        return None
