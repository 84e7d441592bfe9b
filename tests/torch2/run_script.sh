#!/usr/bin/env bash
# `trainscope-cli run-script` on real PyTorch scripts under the probe
# (docs/script-probe.md), on the CPU with the pinned wheel's Python: each
# run checked through its run directory and the views that read it.
#   - a small CNN over two epochs: steps, epochs, a traced cycle, trace-stats
#     and compare on the run directory, --json's summary;
#   - AdamW with a scheduler (the rate followed), a DataLoader with two
#     workers (time waiting for data), a script running its own profiler
#     (its trace kept, Trainscope's schedule said not applied), a crash
#     (steps kept, the error, exit 1), no optimizer.step() (said), a script
#     reading standard input (no hang), a two-rank Gloo job through torchrun
#     (ranks/, a rank folder of traces for the Distributed view), Ctrl-C
#     (stopped, steps kept, 130), and Trainscope's refusals (exit 2).
#
# Usage: tests/torch2/run_script.sh CLI PYTHON   (scripts/torch2.sh test runs it)
set -uo pipefail
cli=$(realpath "$1")
python=$2
scripts=$(cd "$(dirname "$0")/scripts" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "run-script: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "run-script: ok: $*"; }
# A key of a JSON file: field FILE 'expression on d'.
field() { "$python" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# Runs a script into $work/NAME; $code is the CLI's exit status.
run() {
  local name=$1
  shift
  timeout 300 "$cli" run-script --python "$python" --out "$work/$name" "$@" \
    >"$work/$name.out" 2>"$work/$name.err"
  code=$?
}
steps_of() { tail -n +2 "$work/$1/steps.csv" | wc -l; }

# 1. A plain loop over two epochs, profiled past its first steps.
run cnn --set profile.skip_first=3 --json "$scripts/cnn_plain.py" --steps 12 --epochs 2
if [[ $code == 0 ]] && [[ $(field "$work/cnn.out" "d['status'], d['steps']") == "completed 24" ]]; then
  pass "cnn_plain: completed, 24 steps (--json)"
else
  fail "cnn_plain exited $code: $(tail -5 "$work/cnn.err")"
fi
[[ $(steps_of cnn) == 24 ]] && pass "steps.csv has 24 rows" || fail "steps.csv has $(steps_of cnn) rows"
[[ $(field "$work/cnn/run.json" "len(d['epochs'])") == 2 ]] && pass "two epochs" ||
  fail "epochs: $(field "$work/cnn/run.json" "d['epochs']")"
[[ $(field "$work/cnn/run.json" "d['source']['exit_status'], d['config']['batch_size']") == "ok 4" ]] &&
  pass "run.json's source and batch" || fail "run.json: $(field "$work/cnn/run.json" "d['source']")"
if [[ -f $work/cnn/trace.json ]] && "$cli" trace-stats "$work/cnn" >"$work/cnn.stats" 2>&1; then
  pass "its trace opens (trace-stats: $(grep -c . "$work/cnn.stats") lines)"
else
  fail "no trace, or trace-stats failed: $(tail -3 "$work/cnn.stats" 2>/dev/null)"
fi
grep -q "epoch 0" "$work/cnn/stdout.log" && pass "stdout.log holds the script's output" ||
  fail "stdout.log: $(head -3 "$work/cnn/stdout.log")"


# 2. The figures a plain loop cannot show.
run adamw "$scripts/adamw_scheduler.py" --steps 12 --every 4 --gamma 0.5 --lr 0.01
lrs=$("$python" -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(r[0]['lr'], r[-1]['lr'])" "$work/adamw/steps.csv")
[[ $code == 0 && $lrs == "0.01 0.0025" ]] && pass "AdamW's scheduled rate: $lrs" || fail "rates '$lrs' (exit $code)"
run workers "$scripts/loader_workers.py" --steps 10 --sample-ms 5
! grep -h -A2 trainscope_probe "$work/cnn/stderr.log" "$work/workers/stderr.log" &&
  pass "the probe printed nothing into the scripts' output" || fail "the probe printed into the scripts' output"
data=$("$python" -c "import csv,sys,statistics as s; print(s.median(float(r['data_ms']) for r in csv.DictReader(open(sys.argv[1]))))" "$work/workers/steps.csv")
[[ $code == 0 ]] && "$python" -c "import sys; sys.exit(not float(sys.argv[1]) > 1)" "$data" &&
  pass "two loader workers: median $data ms waiting for data" || fail "data wait $data ms (exit $code)"
run compare_b --no-profile "$scripts/cnn_plain.py" --steps 12 --epochs 2 --batch 8
if "$cli" compare "$work/cnn" "$work/compare_b" --out "$work/compared" >"$work/compare.log" 2>&1; then
  pass "compare reads two script runs"
else
  fail "compare: $(tail -3 "$work/compare.log")"
fi

# A step slower than the recent ones beyond their noise: named, and the
# steps after it traced (a second window beside the schedule's).
run slow --catch-slow "$scripts/slow_step.py" --steps 40 --slow-at 28
if grep -q "slow step 28" "$work/slow/run.json" &&
  [[ $(field "$work/slow/run.json" "len(d['profile'])") == 2 ]]; then
  pass "--catch-slow: step 28 named, the steps after it traced"
  slow=$("$python" -c "import csv,sys; print([r['global_step'] for r in csv.DictReader(open(sys.argv[1])) if r['slow'] == '1'])" "$work/slow/steps.csv")
  [[ $slow == "['28']" ]] && pass "steps.csv marks step 28 slow" || fail "slow steps in steps.csv: $slow"
else
  fail "--catch-slow: $(field "$work/slow/run.json" "d['messages']") $(tail -3 "$work/slow.err")"
fi

# 3. The faults.
run own "$scripts/own_profiler.py" "$work/own_trace.json" --steps 6
[[ $code == 0 && -s $work/own_trace.json ]] && pass "the script's own profiler wrote its trace" ||
  fail "own profiler: exit $code, trace $(ls "$work/own_trace.json" 2>&1)"
grep -q "schedule was not applied" "$work/own/run.json" && pass "said: Trainscope's schedule was not applied" ||
  fail "no note about the script's own profiler: $(field "$work/own/run.json" "d['messages']")"
run crash "$scripts/crash.py" --after 3
[[ $code == 1 && $(field "$work/crash/run.json" "d['summary']['status']") == failed ]] &&
  pass "a crash: failed, exit 1" || fail "crash: exit $code"
[[ $(steps_of crash) == 3 ]] && pass "its 3 steps kept" || fail "crash kept $(steps_of crash) steps"
grep -q "Error" <<<"$(field "$work/crash/run.json" "d['summary']['error']")" &&
  pass "the error: $(field "$work/crash/run.json" "d['summary']['error']" | tail -1)" || fail "no error text"
run none "$scripts/no_steps.py"
grep -q "no optimizer.step()" "$work/none/run.json" && pass "no steps: said so" || fail "no steps: $(tail -3 "$work/none.err")"
printf 'import sys\nprint("read", repr(sys.stdin.read()))\n' >"$work/stdin.py"
run stdin "$work/stdin.py"
[[ $code == 0 ]] && grep -q "read ''" "$work/stdin/stdout.log" && pass "standard input reads empty, no hang" ||
  fail "stdin: exit $code"

# 4. Two ranks through torchrun: a run per rank and a rank folder of traces.
run ddp --nproc-per-node 2 --set profile.skip_first=2 "$scripts/ddp_gloo.py" --steps 10
if [[ $code == 0 && -f $work/ddp/ranks/1/steps.csv && -f $work/ddp/traces/cycle0/rank1.json ]]; then
  pass "torchrun: ranks/0-1 and traces/cycle0/rank{0,1}.json"
  # Read whole, not piped into grep -q: under pipefail the CLI's SIGPIPE once
  # grep has matched would fail the check (it did, in a clean-clone CI run).
  view=$("$cli" trace-stats "$work/ddp/traces/cycle0" --view distributed 2>&1)
  if grep -q "2 ranks" <<<"$view"; then
    pass "the rank folder opens in the Distributed view"
  else
    fail "the rank folder does not open as 2 ranks"
  fi
else
  fail "torchrun: exit $code: $(find "$work/ddp" | head -20) $(tail -5 "$work/ddp.err")"
fi

# 5. Ctrl-C: the script is stopped, what it measured kept.
timeout 120 "$cli" run-script --python "$python" --out "$work/stop" "$scripts/cnn_plain.py" \
  --steps 20000 --sleep 0.01 >"$work/stop.out" 2>"$work/stop.err" &
runner=$!
# Ctrl-C once it has measured some steps (its data take a few seconds to make).
for _ in $(seq 120); do
  [[ -f $work/stop/steps.csv ]] && (($(steps_of stop) > 20)) && break
  sleep 0.5
done
kill -INT "$runner"
wait "$runner"
code=$?
status=$(field "$work/stop/run.json" "d['summary']['status']" 2>/dev/null)
[[ $code == 130 && $status == cancelled && $(steps_of stop) -gt 10 ]] &&
  pass "Ctrl-C: cancelled, $(steps_of stop) steps kept, exit 130" || fail "Ctrl-C: exit $code, status $status"

# 6. Trainscope's refusals: exit 2, nothing recorded.
run missing "$work/nope.py"
[[ $code == 2 ]] && grep -q "no such script" "$work/missing.err" && [[ ! -e $work/missing ]] &&
  pass "no such script: 2" || fail "missing script: exit $code"
printf '#!/bin/sh\necho python 3.11.2\necho "ModuleNotFoundError: No module named torch" >&2\nexit 1\n' >"$work/bare_python"
chmod +x "$work/bare_python"
timeout 60 "$cli" run-script --python "$work/bare_python" "$scripts/cnn_plain.py" >/dev/null 2>"$work/bare.err"
code=$?
[[ $code == 2 ]] && grep -q "has no torch.*(with --python)" "$work/bare.err" && pass "an interpreter without torch: 2, named" ||
  fail "interpreter without torch: exit $code: $(cat "$work/bare.err")"

if ((failures)); then
  echo "run-script: $failures failures" >&2
  exit 1
fi
echo "run-script: all passed"
