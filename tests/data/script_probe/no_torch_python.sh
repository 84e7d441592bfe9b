#!/bin/sh
# A stand-in interpreter without torch, for ScriptRunTest: it answers as a
# Python whose `import torch` fails.
echo "python 3.11.2"
echo "Traceback (most recent call last):" >&2
echo "ModuleNotFoundError: No module named 'torch'" >&2
exit 1
