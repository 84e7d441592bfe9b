#!/usr/bin/env bash
# Does being polled by Trainscope's on-demand daemon slow a job's steps?
# (docs/on-demand.md, "Cost"). The same script (step_timer.py, a small CPU
# MLP) runs ROUNDS times in each of four ways, interleaved so that the
# machine's drift hits all alike: without KINETO_USE_DAEMON (not polling),
# with it and no daemon to answer (libkineto's own cost), with it while
# `trainscope-cli jobs` answers its polls, and with it while
# `trainscope-cli trace-job` traces 5 of its steps (the median is over all
# steps, traced ones included). Prints each run's median step time and the
# medians of each way with their ratio to the first.
#
# Usage: bench/ondemand/polled_vs_not.sh CLI PYTHON [ROUNDS] [STEPS]
set -euo pipefail
cli=$(realpath "$1")
python=$2
rounds=${3:-3}
steps=${4:-10000}
here=$(cd "$(dirname "$0")" && pwd)
declare -A runs=()

run_one() { # way -> appends the run's median to runs[way]
  local way=$1 out
  case $way in
  plain) out=$("$python" "$here/step_timer.py" "$steps" 2>/dev/null) ;;
  unanswered) out=$(KINETO_USE_DAEMON=1 "$python" "$here/step_timer.py" "$steps" 2>/dev/null) ;;
  polled)
    "$cli" jobs --wait 600 >/dev/null 2>&1 &
    local daemon=$!
    sleep 0.5
    out=$(KINETO_USE_DAEMON=1 "$python" "$here/step_timer.py" "$steps" 2>/dev/null)
    kill "$daemon"; wait "$daemon" 2>/dev/null || true ;;
  traced)
    KINETO_USE_DAEMON=1 "$python" "$here/step_timer.py" "$steps" >"$tmp/out" 2>/dev/null &
    local job=$!
    "$cli" trace-job "$job" --iterations 5 --out "$tmp" >/dev/null 2>&1 || true
    wait "$job"
    out=$(cat "$tmp/out") ;;
  esac
  local median p95 count
  read -r median p95 count <<<"$out"
  echo "$way: median $median ms, p95 $p95 ms over $count steps"
  runs[$way]+="$median "
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for way in plain unanswered polled traced; do run_one $way; done
done
"$python" - "${runs[plain]}" "${runs[unanswered]}" "${runs[polled]}" "${runs[traced]}" <<'PY'
import statistics, sys
names = ["not polled", "polling, no daemon", "polled", "polled, 5 steps traced"]
medians = [statistics.median(float(v) for v in arg.split()) for arg in sys.argv[1:]]
for name, m in zip(names, medians):
    print("%-24s median of medians %.4f ms  ratio %.3f" % (name, m, m / medians[0]))
PY
