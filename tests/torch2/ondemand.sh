#!/usr/bin/env bash
# Trainscope as Kineto's on-demand daemon against real PyTorch processes
# (docs/on-demand.md), on the CPU: a training loop started with
# KINETO_USE_DAEMON=1 is listed by `jobs` and traced for 3 iterations by
# `trace-job`; a two-rank Gloo job under torchrun is traced on both ranks at
# the same iteration into a rank folder; and the faults: a pid that never
# polls, a job that exits while traced, a job running its own torch.profiler,
# a second daemon on the same socket.
#
# Usage: tests/torch2/ondemand.sh CLI PYTHON   (scripts/torch2.sh test runs it)
set -uo pipefail
cli=$(realpath "$1")
python=$2
here=$(cd "$(dirname "$0")/ondemand" && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "ondemand: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ondemand: ok: $*"; }

# Starts `train_loop.py ARGS` with the daemon switched on; sets $job to its pid.
start_loop() {
  KINETO_USE_DAEMON=1 "$python" "$here/train_loop.py" "$@" >"$work/loop.$#.log" 2>&1 &
  job=$!
  pids+=("$job")
}

# 1. A training loop: listed, then traced for 3 iterations.
start_loop 3000 0.02
"$cli" jobs --wait 6 --json >"$work/jobs.json" || fail "jobs exited $?"
if "$python" -c "import json,sys; p=[x['pid'] for x in json.load(open(sys.argv[1]))['processes']]; sys.exit(int(sys.argv[2]) not in p)" "$work/jobs.json" "$job"; then
  pass "jobs lists pid $job"
else
  fail "jobs does not list pid $job: $(cat "$work/jobs.json")"
fi
if "$cli" trace-job "$job" --iterations 3 --shapes --out "$work/one" --json >"$work/one.json" 2>"$work/one.err"; then
  trace=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['output'])" "$work/one.json")
  if "$python" "$here/check_trace.py" "$trace" 3 >/dev/null; then pass "trace-job wrote $trace"; else fail "the trace lacks the steps"; fi
  # Asked for 3 steps: at least 3 whole steps in the Overview (found between
  # the optimizer's annotations, docs/gpu-traces.md).
  steps=$("$python" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['view']['steps']))" "$work/one.json")
  if ((steps >= 3)); then pass "its Overview has $steps steps"; else fail "its Overview has $steps steps, not 3"; fi
else
  fail "trace-job exited $?: $(cat "$work/one.err")"
fi
kill "$job" 2>/dev/null

# 2. The faults of one process.
sleep 300 &
idle=$!
pids+=("$idle")
"$cli" trace-job "$idle" --timeout 6 >/dev/null 2>"$work/idle.err"
code=$?
if [[ $code == 2 ]] && grep -q "KINETO_USE_DAEMON=1" "$work/idle.err"; then
  pass "a pid that never polls: exit 2, says how to start it"
else
  fail "a pid that never polls: exit $code, $(cat "$work/idle.err")"
fi

start_loop 3000 0.02 --own-profiler
"$cli" trace-job "$job" --iterations 3 --timeout 12 --out "$work/busy" >/dev/null 2>"$work/busy.err"
code=$?
if [[ $code == 1 ]] && grep -q "busy" "$work/busy.err"; then
  pass "a job running its own profiler: said busy"
else
  fail "own profiler: exit $code, $(cat "$work/busy.err")"
fi
kill "$job" 2>/dev/null

# A job that ends before its 100 traced steps are done: it lives ~20 s after
# torch's import, so it polls at least twice (every 5 s) before it ends, and
# is asked at the second poll at the latest. torch 2.15 itself may crash as it
# exits with the trace still open: bash's "Segmentation fault" line in the log
# is that job's, and trace-job must still say what happened.
start_loop 40 0.5
"$cli" trace-job "$job" --iterations 100 --out "$work/exits" --write-timeout 60 >/dev/null 2>"$work/exits.err"
code=$?
if [[ $code == 1 ]] && grep -q "exited while being traced" "$work/exits.err"; then
  pass "a job that exits while traced: said so"
else
  fail "a job that exits while traced: exit $code, $(cat "$work/exits.err")"
fi

# A second daemon on the same socket is told who holds it.
"$cli" jobs --wait 6 >/dev/null 2>&1 &
first=$!
sleep 1
"$cli" jobs --wait 0 >/dev/null 2>"$work/second.err"
code=$?
wait "$first"
if [[ $code == 2 ]] && grep -q "is taken by trainscope-cli (pid $first" "$work/second.err"; then
  pass "a second daemon: exit 2, names the holder"
else
  fail "a second daemon: exit $code, $(cat "$work/second.err")"
fi

# 3. Two ranks under torchrun, traced through torchrun's pid at the same iteration.
KINETO_USE_DAEMON=1 "$python" -m torch.distributed.run --standalone --nproc-per-node 2 \
  "$here/ddp_loop.py" 3000 0.02 >"$work/ddp.log" 2>&1 &
launcher=$!
pids+=("$launcher")
# Traced once both ranks have started (a job already running, as users trace).
for _ in 1 2 3 4 5; do
  "$cli" jobs --wait 6 --json >"$work/ddp-jobs.json" 2>/dev/null
  grep -q '"rank": 1' "$work/ddp-jobs.json" && break
done
if "$cli" trace-job "$launcher" --iterations 3 --align-steps 300 --out "$work/ddp" --json \
  >"$work/ddp.json" 2>"$work/ddp.err"; then
  folder=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['output'])" "$work/ddp.json")
  first0=$("$python" "$here/check_trace.py" "$folder/rank0.pt.trace.json" 3 | cut -d' ' -f3)
  first1=$("$python" "$here/check_trace.py" "$folder/rank1.pt.trace.json" 3 | cut -d' ' -f3)
  # Lockstep ranks traced from the same iteration end their first traced
  # optimizer step within one step (~25 ms) of each other.
  if "$python" -c "import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 20000)" "$first0" "$first1"; then
    pass "two ranks traced at the same iteration into $folder (first steps end at $first0 and $first1 us)"
  else
    fail "the ranks' first traced steps end $first0 and $first1 us"
  fi
  "$cli" trace-stats "$folder" --view distributed >/dev/null 2>"$work/dist.err" ||
    fail "the rank folder's distributed view: $(cat "$work/dist.err")"
else
  fail "trace-job of the torchrun job exited $?: $(cat "$work/ddp.err")"
fi
kill "$launcher" 2>/dev/null

if ((failures)); then
  echo "ondemand: $failures failed" >&2
  exit 1
fi
echo "ondemand: all passed"
