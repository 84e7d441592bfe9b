#!/usr/bin/env bash
# #48's read targets side by side in one run: Trainscope's snapshot reader
# (bench_snapshot_read) and Python's pickle.load on the same files, with the
# figures each read (they must agree), then one table: size, seconds of
# each (medians), the ratio, peak RSS of each and against the file's size.
# Make the files with make_snapshot (C++, bench target) or make_snapshot.py.
#   bench/memory/snapshot_vs_pickle.sh SNAPSHOT... [RUNS=3 env; PYTHON=python3;
#   SKIP_PICKLE_ABOVE_MB=N: no pickle.load of bigger files (it needs ~13x the file)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${BENCH:-$root/build/default/bench/bench_snapshot_read}
runs=${RUNS:-3}
python=${PYTHON:-python3}
skip_above=${SKIP_PICKLE_ABOVE_MB:-0}
[[ -x $bench ]] || { echo "snapshot_vs_pickle.sh: build bench_snapshot_read first ($bench)" >&2; exit 2; }
[[ $# -gt 0 ]] || { echo "usage: snapshot_vs_pickle.sh SNAPSHOT..." >&2; exit 2; }
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
rows=()
for f in "$@"; do
  [[ -f $f ]] || { echo "snapshot_vs_pickle.sh: no file $f" >&2; exit 2; }
  echo "== $f"
  mb=$(( $(stat -c %s "$f") / 1000000 ))
  "$bench" "$f" --runs "$runs" | tee "$log/ts"
  ts_s=$(sed -n 's/^read: median \([0-9.]*\) s.*/\1/p' "$log/ts")
  ts_rss=$(sed -n 's/.*peak RSS \([0-9]*\) MB.*/\1/p' "$log/ts")
  py_s=- py_rss=-
  if [[ $skip_above -gt 0 && $mb -gt $skip_above ]]; then
    echo "pickle.load: skipped (${mb} MB: more than SKIP_PICKLE_ABOVE_MB=$skip_above)"
  else
    "$python" "$here/pickle_reference.py" "$f" --runs "$runs" | tee "$log/py"
    py_s=$(sed -n 's/^pickle.load: median \([0-9.]*\) s.*/\1/p' "$log/py")
    py_rss=$(sed -n 's/^pickle.load:.*peak RSS \([0-9]*\) MB.*/\1/p' "$log/py")
  fi
  rows+=("$mb $ts_s $py_s $ts_rss $py_rss")
done
echo
printf '%10s %13s %15s %7s %12s %14s %9s %11s\n' "size MB" "Trainscope s" "pickle.load s" "ratio" \
  "TS RSS MB" "pickle RSS MB" "TS/file" "pickle/file"
for r in "${rows[@]}"; do
  read -r mb ts_s py_s ts_rss py_rss <<<"$r"
  awk -v mb="$mb" -v t="$ts_s" -v p="$py_s" -v tr="$ts_rss" -v pr="$py_rss" 'BEGIN {
    ratio = (p == "-") ? "-" : sprintf("%.1fx", p / t)
    pf = (pr == "-") ? "-" : sprintf("%.2f", pr / mb)
    printf "%10d %13.3f %15s %7s %12d %14s %9.2f %11s\n", mb, t, p, ratio, tr, pr, tr / mb, pf }'
done
