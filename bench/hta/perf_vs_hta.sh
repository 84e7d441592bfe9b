#!/usr/bin/env bash
# Trainscope's temporal and idle-time breakdowns against Holistic Trace
# Analysis' (issue #45): the whole run of each analysis on the same trace,
# wall time and peak RSS from /usr/bin/time -v, median of RUNS runs.
#
#   Trainscope: trainscope-cli trace-stats TRACE --view temporal|idle --format json
#     cold: --no-cache (the JSON is read);
#     warm: the trace index cached by one untimed run in a private
#           TRAINSCOPE_CACHE_DIR, then reopened from it.
#   HTA: one Python process per analysis: TraceAnalysis(trace_dir=...) (the
#        parse) then get_temporal_breakdown / get_idle_time_breakdown
#        (ranks=all, show_idle_interval_stats=True); the process also reports
#        its import, parse and analysis times separately.
#
# The runs alternate (Trainscope cold, Trainscope warm, HTA) so machine noise
# hits all three. Trainscope runs with --timings; its read / analysis split
# (stderr of the last run) is printed below the table. Finally the figures of
# the last runs are compared: temporal idle/compute/non-compute/kernel time
# and each stream's host wait / kernel wait / other. HTA rounds sub-us times
# inward to whole microseconds, Trainscope keeps nanoseconds, so they differ
# by up to about 1 us per kernel.
#
# Usage: bench/hta/perf_vs_hta.sh TRAINSCOPE_CLI HTA_PYTHON TRACE [RUNS]
#   TRACE: a Kineto trace (.json or .json.gz), one rank; RUNS default 3.
# Needs /usr/bin/time (GNU). Downloads nothing; writes only to a temp folder
# (removed at exit; KEEP=1 keeps it and prints its path).
set -euo pipefail


# Checks the arguments, sets cli, hta_python, trace and runs, makes $work.
# shellcheck source=perf_common.sh
source "$(dirname "$0")/perf_common.sh"

# The HTA side: python hta_run.py temporal|idle TRACE_DIR OUT_JSON
cat >"$work/hta_run.py" <<'EOF'
import json, sys, time
t0 = time.perf_counter()
from hta.trace_analysis import TraceAnalysis
t1 = time.perf_counter()
which, trace_dir, out = sys.argv[1:4]
analysis = TraceAnalysis(trace_dir=trace_dir)
t2 = time.perf_counter()
if which == "temporal":
    table, stats = analysis.get_temporal_breakdown(visualize=False), None
else:
    table, stats = analysis.get_idle_time_breakdown(
        ranks=analysis.t.get_ranks(), visualize=False, show_idle_interval_stats=True)
t3 = time.perf_counter()
print(f"HTA_TIMES {t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f}", file=sys.stderr)
result = {"table": json.loads(table.to_json(orient="records"))}
if stats is not None:
    result["stats"] = json.loads(stats.reset_index().to_json(orient="records"))
with open(out, "w") as f:
    json.dump(result, f)
EOF

# Comparison of the last runs' figures: python compare.py TS_TEMPORAL HTA_TEMPORAL TS_IDLE HTA_IDLE
cat >"$work/compare.py" <<'EOF'
import json, sys
ts_t, hta_t, ts_i, hta_i = (json.load(open(p)) for p in sys.argv[1:5])
def line(what, ts, hta):
    rel = (ts - hta) / hta * 100 if hta else float("nan")
    print(f"  {what:<34} {ts:>16,.3f} {hta:>16,.0f} {ts - hta:>+12,.1f} {rel:>+8.3f}%")
print(f"  {'figure (us)':<34} {'Trainscope':>16} {'HTA':>16} {'difference':>12} {'relative':>9}")
hta_rows = {r["rank"]: r for r in hta_t["table"]}
for r in ts_t["ranks"]:
    h = hta_rows[r["rank"]]
    for key, hkey in (("idle_us", "idle_time(us)"), ("compute_us", "compute_time(us)"),
                      ("non_compute_us", "non_compute_time(us)"), ("kernel_us", "kernel_time(us)")):
        line(f"rank {r['rank']} {key}", r[key], h[hkey])
hta_idle = {(r["rank"], r["stream"], r["idle_category"]): r["idle_time"] for r in hta_i["table"]}
hta_count = {(r["rank"], r["stream"], r["idle_category"]): r["count"] for r in hta_i.get("stats", [])}
for r in ts_i["ranks"]:
    for s in r["streams"]:
        for cat in ("host_wait", "kernel_wait", "other"):
            key = (r["rank"], s["stream"], cat)
            line(f"rank {key[0]} stream {key[1]} {cat}", s[f"{cat}_us"], hta_idle.get(key, 0.0))
            if key in hta_count:
                n = s["intervals"][cat]["count"]
                print(f"  {'':<34} {'intervals':>10} {n:>5} {hta_count[key]:>16,.0f}")
EOF


# ts VIEW [--no-cache]: the trace-stats command line, with the private cache
ts=(env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" --format json --timings --view)

echo "trace: $trace ($(du -Lh "$trace" | cut -f1)), $runs runs; load: $(uptime | sed 's/.*load average: //')"
for view in temporal idle; do
  rm -rf "$work/cache"; mkdir -p "$work/cache"
  "${ts[@]}" "$view" >/dev/null 2>&1  # fills the cache for the warm runs (untimed)
  for ((r = 0; r < runs; r++)); do
    run_timed "ts_${view}_cold" "${ts[@]}" "$view" --no-cache
    run_timed "ts_${view}_warm" "${ts[@]}" "$view"
    run_timed "hta_${view}" "$hta_python" "$work/hta_run.py" "$view" "$work/hta_trace" "$work/hta_${view}.json"
    # HTA's own split: import, parse, analysis
    grep -o 'HTA_TIMES.*' "$work/hta_${view}.err" | cut -d' ' -f2- >>"$work/hta_${view}.split"
  done
done
echo "load after: $(uptime | sed 's/.*load average: //')"
echo

printf "%-9s %-11s %-5s %9s %12s   %s\n" analysis tool read "wall s" "peak RSS MB" "ratio (HTA / Trainscope: speed-up, memory)"
for view in temporal idle; do
  hw=$(col_median "hta_$view" 1); hm=$(col_median "hta_$view" 2)
  for mode in cold warm; do
    w=$(col_median "ts_${view}_$mode" 1); m=$(col_median "ts_${view}_$mode" 2)
    printf "%-9s %-11s %-5s %9.2f %12.0f   %.1fx faster, %.1fx less memory\n" "$view" Trainscope "$mode" "$w" "$m" \
      "$(awk -v a="$hw" -v b="$w" 'BEGIN {print a / b}')" "$(awk -v a="$hm" -v b="$m" 'BEGIN {print a / b}')"
  done
  printf "%-9s %-11s %-5s %9.2f %12.0f\n" "$view" "HTA" parse "$hw" "$hm"
done

echo
echo "HTA inside Python (medians, s): import, parse (TraceAnalysis), analysis"
for view in temporal idle; do
  printf "  %-9s import %6.2f  parse %7.2f  analysis %6.2f\n" "$view" \
    "$(awk '{print $1}' "$work/hta_$view.split" | median)" \
    "$(awk '{print $2}' "$work/hta_$view.split" | median)" \
    "$(awk '{print $3}' "$work/hta_$view.split" | median)"
done
echo "Trainscope --timings (last run):"
for name in ts_temporal_cold ts_temporal_warm ts_idle_cold ts_idle_warm; do
  echo "  $name:"; grep -E '^(timings|peak memory)' "$work/$name.err" | sed 's/^/    /'
done

echo
echo "Agreement (last runs; Trainscope in ns, HTA in whole us):"
"$hta_python" "$work/compare.py" "$work/ts_temporal_warm.out" "$work/hta_temporal.json" \
  "$work/ts_idle_warm.out" "$work/hta_idle.json"
