"""Trainscope's probe: runs a user's unmodified PyTorch training script and streams what
each training step costs to Trainscope (docs/script-probe.md).

Run it as ``python -m trainscope_probe SCRIPT ARGS...`` or ``python -m trainscope_probe -m
MODULE ARGS...`` with the configuration in the environment variable TRAINSCOPE_PROBE.
Standard library and torch only: it runs inside the user's own interpreter.
"""

WIRE_VERSION = 1
