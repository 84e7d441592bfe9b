#!/usr/bin/env bash
# The diagnoses after the temporal and idle breakdowns against Holistic Trace
# Analysis' (issue #45): queue length, memory bandwidth, user annotations,
# frequent kernel sequences and the communication/computation overlap.
#
#   Trainscope: one process per analysis, as a user runs it:
#     trainscope-cli trace-stats TRACE --view V --format json --timings [--no-cache]
#     (cold: the JSON read; warm: the index cached by one untimed run), for
#     V = queue, memory-bw, annotations, kernel-sequences (--operator OP
#     --min-pattern-len 1), kernel-types (which has the overlap).
#   HTA: one Python process that parses once (TraceAnalysis) and then runs
#     each analysis in turn, timing each: a user's run of one analysis costs
#     import + parse + that analysis (printed as such). The frequent
#     sequences get TIMEOUT seconds (HTA's call graph is slow); past it they
#     are reported as not finished.
#
# Wall time and peak RSS from /usr/bin/time -v; medians of RUNS Trainscope
# runs (HTA runs once: its parse of 1 GB takes minutes).
#
# Usage: bench/hta/perf_more_vs_hta.sh TRAINSCOPE_CLI HTA_PYTHON TRACE [RUNS] [OP] [TIMEOUT]
#   TRACE: one rank's Kineto trace; RUNS default 3; OP default aten::addmm;
#   TIMEOUT default 900; SIDE=gpu for gpu_user_annotation ranges (default
#   cpu: user_annotation). Writes only to a temp folder (KEEP=1 keeps it).
set -euo pipefail

op=${5:-aten::addmm}
timeout_s=${6:-900}
side=${SIDE:-cpu} # the annotations: cpu (user_annotation) or gpu (gpu_user_annotation)

# Checks the arguments, sets cli, hta_python, trace and runs, makes $work.
# shellcheck source=perf_common.sh
source "$(dirname "$0")/perf_common.sh"
mkdir -p "$work/hta_out"

cat >"$work/hta_all.py" <<'EOF'
import sys, time, threading, os
t0 = time.perf_counter()
from hta.trace_analysis import TraceAnalysis
t1 = time.perf_counter()
trace_dir, out, op, timeout_s = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
a = TraceAnalysis(trace_dir=trace_dir)
t2 = time.perf_counter()
print(f"HTA import {t1 - t0:.2f} parse {t2 - t1:.2f}", flush=True)
ranks = a.t.get_ranks()
def run(name, fn):
    s = time.perf_counter()
    try:
        r = fn()
        print(f"HTA {name} {time.perf_counter() - s:.2f}", flush=True)
        return r
    except Exception as e:
        print(f"HTA {name} FAILED {type(e).__name__}: {e}", flush=True)
run("queue", lambda: (a.get_queue_length_summary(ranks=ranks),
                      a.get_time_spent_blocked_on_full_queue(a.get_queue_length_time_series(ranks=ranks))))
run("memory-bw", lambda: a.get_memory_bw_summary(ranks=ranks))
gpu = os.environ.get("SIDE", "cpu") == "gpu"
run("annotations", lambda: a.get_gpu_user_annotation_breakdown(use_gpu_annotation=gpu, visualize=False))
run("overlap", lambda: a.get_comm_comp_overlap(visualize=False))
# Last: it may not finish; the watchdog ends the process after timeout_s.
def watchdog():
    print(f"HTA kernel-sequences NOT FINISHED in {timeout_s:.0f} s", flush=True)
    os._exit(0)
timer = threading.Timer(timeout_s, watchdog); timer.daemon = True; timer.start()
run("kernel-sequences", lambda: a.get_frequent_cuda_kernel_sequences(
    operator_name=op, output_dir=out, min_pattern_len=1, rank=ranks[0]))
timer.cancel()
EOF


views=(queue memory-bw annotations kernel-sequences kernel-types)
args_of() {
  case $1 in
    kernel-sequences) echo "--operator $op --min-pattern-len 1" ;;
    annotations) echo "--annotations $side" ;;
  esac
}
ts() { env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" --format json --timings --view "$@"; }

echo "trace: $trace ($(du -Lh "$trace" | cut -f1)), $runs runs; load: $(uptime | sed 's/.*load average: //')"
ts queue >/dev/null 2>&1 # fills the index cache for the warm runs (untimed)
for ((r = 0; r < runs; r++)); do
  for v in "${views[@]}"; do
    # shellcheck disable=SC2046
    run_timed "ts_${v}_cold" env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" \
      --format json --timings --no-cache --view "$v" $(args_of "$v")
    # shellcheck disable=SC2046
    run_timed "ts_${v}_warm" env TRAINSCOPE_CACHE_DIR="$work/cache" "$cli" trace-stats "$trace" \
      --format json --timings --view "$v" $(args_of "$v")
  done
done
run_timed hta env SIDE="$side" "$hta_python" "$work/hta_all.py" "$work/hta_trace" "$work/hta_out" "$op" "$timeout_s"
echo "load after: $(uptime | sed 's/.*load average: //')"
echo
cat "$work/hta.out"
hta_rss=$(awk '{print $2}' "$work/hta.times")
read -r _ _ import _ parse < <(grep '^HTA import' "$work/hta.out")
echo "HTA peak RSS (all analyses, one process): ${hta_rss} MB"
echo
printf "%-17s %-5s %8s %8s %10s   %s\n" analysis read "wall s" "RSS MB" "HTA s" "HTA (import + parse + analysis) / Trainscope"
hta_name() { case $1 in kernel-types) echo overlap ;; *) echo "$1" ;; esac; }
for v in "${views[@]}"; do
  line=$(grep "^HTA $(hta_name "$v") " "$work/hta.out" || true)
  own=$(awk '{print $3}' <<<"$line")
  if [[ $own =~ ^[0-9.]+$ ]]; then
    hta_s=$(awk -v a="$import" -v b="$parse" -v c="$own" 'BEGIN {print a + b + c}')
  else hta_s=""; fi
  for mode in cold warm; do
    w=$(col_median "ts_${v}_$mode" 1); m=$(col_median "ts_${v}_$mode" 2)
    ratio=$([[ -n $hta_s ]] && awk -v a="$hta_s" -v b="$w" -v x="$hta_rss" -v y="$m" \
      'BEGIN {printf "%.1fx faster, %.1fx less memory", a / b, x / y}' || echo "HTA: ${line#HTA * }")
    printf "%-17s %-5s %8.2f %8.0f %10s   %s\n" "$v" "$mode" "$w" "$m" "${hta_s:--}" "$ratio"
  done
done
echo
echo "Trainscope --timings (last warm runs):"
for v in "${views[@]}"; do
  echo "  $v:"; grep -E '^(timings|peak memory)' "$work/ts_${v}_warm.err" | sed 's/^/    /'
done
