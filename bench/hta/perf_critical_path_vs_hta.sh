#!/usr/bin/env bash
# The critical path of one step against Holistic Trace Analysis' (issue #46).
#
#   Trainscope: trainscope-cli trace-stats TRACE --view critical-path --format json
#     --timings (the first step: its graph, path, breakdown and the 15
#     halvings of the ranked what-if), cold (--no-cache: the JSON read) and
#     warm (the index cached by one untimed run).
#   HTA: one Python process: import, TraceAnalysis (the parse), then
#     critical_path_analysis(rank 0, "ProfilerStep", instance 0) with
#     CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 and summary(); each timed.
#
# Wall time and peak RSS from /usr/bin/time -v; medians of RUNS Trainscope
# runs (HTA runs once: its parse of 1 GB takes minutes).
#
# Usage: bench/hta/perf_critical_path_vs_hta.sh TRAINSCOPE_CLI HTA_PYTHON TRACE [RUNS]
#   HTA_PYTHON: a python with HTA importable (PYTHONPATH=its source works).
#   Writes only to a temp folder (KEEP=1 keeps it).
set -euo pipefail


# Checks the arguments, sets cli, hta_python, trace and runs, makes $work.
# shellcheck source=perf_common.sh
source "$(dirname "$0")/perf_common.sh"

cat >"$work/hta_cp.py" <<'PY'
import os, sys, time
os.environ["CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE"] = "1"
t0 = time.perf_counter()
from hta.trace_analysis import TraceAnalysis
t1 = time.perf_counter()
a = TraceAnalysis(trace_dir=sys.argv[1])
t2 = time.perf_counter()
print(f"HTA import {t1 - t0:.2f} parse {t2 - t1:.2f}", flush=True)
try:
    g, ok = a.critical_path_analysis(rank=0, annotation="ProfilerStep", instance_id=0)
    t3 = time.perf_counter()
    s = g.summary()
    total = g.get_critical_path_breakdown().duration.sum()
    print(f"HTA critical-path {t3 - t2:.2f} ok={ok} nodes={g.number_of_nodes()} "
          f"path_us={total}", flush=True)
    print("HTA summary " + ", ".join(f"{k or '-'} {v:.2f}%" for k, v in s.items()), flush=True)
except Exception as e:
    print(f"HTA critical-path FAILED {type(e).__name__}: {e}", flush=True)
PY

ts() { env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" --format json --timings \
  --view critical-path "$@"; }
echo "trace: $trace ($(du -Lh "$trace" | cut -f1)), $runs runs; load: $(uptime | sed 's/.*load average: //')"
ts >/dev/null 2>&1 # fills the index cache for the warm runs (untimed)
for ((r = 0; r < runs; r++)); do
  run_timed ts_cold env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" --format json \
    --timings --no-cache --view critical-path
  run_timed ts_warm env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" --format json \
    --timings --view critical-path
done
run_timed hta "$hta_python" "$work/hta_cp.py" "$work/hta_trace"
echo "load after: $(uptime | sed 's/.*load average: //')"
echo
cat "$work/hta.out"
python3 - "$work/ts_warm.out" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"Trainscope {j['window']}: path {j['path_us']:.0f} us of {j['step_duration_us']:.0f} us, "
      f"{j['graph']['nodes']} nodes; " +
      ", ".join(f"{b['bound_by']} {b['pct']:.2f}%" for b in j['breakdown']))
PY
read -r _ _ import _ parse < <(grep '^HTA import' "$work/hta.out")
own=$(awk '/^HTA critical-path/ {print $3}' "$work/hta.out")
hta_rss=$(awk '{print $2}' "$work/hta.times")
hta_s=$(awk -v a="$import" -v b="$parse" -v c="$own" 'BEGIN {print a + b + c}')
echo
printf "%-6s %8s %8s   %s\n" read "wall s" "RSS MB" "HTA: import + parse + path = ${hta_s} s, ${hta_rss} MB"
for mode in cold warm; do
  w=$(col_median "ts_$mode" 1); m=$(col_median "ts_$mode" 2)
  printf "%-6s %8.2f %8.0f   %s\n" "$mode" "$w" "$m" \
    "$(awk -v a="$hta_s" -v b="$w" -v x="$hta_rss" -v y="$m" \
      'BEGIN {printf "%.1fx faster, %.1fx less memory", a / b, x / y}')"
done
echo
echo "Trainscope --timings (last warm run):"
grep -E '^(timings|peak memory)' "$work/ts_warm.err" | sed 's/^/  /'
