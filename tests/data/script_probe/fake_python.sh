#!/bin/sh
# A stand-in interpreter for ScriptRunTest (no torch needed): it answers
# Trainscope's version question as a Python with torch does, and runs
# fake_probe.py where the real one would run `-m trainscope_probe SCRIPT ...`.
if [ "$1" = "-c" ]; then
  echo "python 3.11.2"
  echo "torch 2.15.0"
  exit 0
fi
shift 2
exec python3 "$(dirname "$0")/fake_probe.py" "$@"
