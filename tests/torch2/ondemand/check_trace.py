"""Checks an on-demand trace (tests/torch2/ondemand.sh), standard library only.

Usage: check_trace.py FILE MIN_STEPS
Prints the number of optimizer steps, of aten operators and the time of the
first optimizer step's end (us); fails unless the trace holds at least
MIN_STEPS optimizer steps with the operators of a training step in them.
"""
import json
import sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
steps = sorted(e["ts"] + e["dur"] for e in events
               if e.get("ph") == "X" and e.get("name", "").startswith("Optimizer.step#"))
ops = [e for e in events if e.get("cat") == "cpu_op" and e.get("name", "").startswith("aten::")]
names = {e["name"] for e in ops}
print(len(steps), len(ops), steps[0] if steps else -1)
missing = {"aten::addmm", "aten::relu", "aten::mm"} - names
if len(steps) < int(sys.argv[2]) or missing:
    sys.exit("%s: %d optimizer steps (want %s), operators missing: %s"
             % (sys.argv[1], len(steps), sys.argv[2], sorted(missing)))
