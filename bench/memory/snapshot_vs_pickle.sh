#!/usr/bin/env bash
# #48's read targets side by side in one run: what a user runs,
# `trainscope-cli memory-stats FILE` (the summary, and --view peak) end to
# end, each run a process of its own as a user's is; its parts as
# bench_snapshot_read times them in one process (the read's median, the
# first read, the analysis); and Python's pickle.load on the same files, a
# process per run too, with the figures each read (they must agree). Then
# one table: size, seconds of each (medians), the ratios, CPU seconds
# (user + sys: steadier than wall time on a shared machine), peak RSS.
# Make the files with make_snapshot (C++, bench target) or make_snapshot.py.
#   bench/memory/snapshot_vs_pickle.sh SNAPSHOT... [RUNS=3 env; PYTHON=python3;
#   SKIP_PICKLE_ABOVE_MB=N: no pickle.load of bigger files (it needs 6-13x the file)]
#
# A command's time holds what the bench's median read does not: a process's
# memory is touched for the first time (on a VM, zeroing fresh pages can cost
# more than the read's arithmetic: issue 62), the replay and the tables, and
# the exit. The ratio to pickle.load is the command's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${BENCH:-$root/build/default/bench/bench_snapshot_read}
cli=${CLI:-$root/build/default/app/trainscope-cli}
runs=${RUNS:-3}
python=${PYTHON:-python3}
skip_above=${SKIP_PICKLE_ABOVE_MB:-0}
for tool in "$bench" "$cli"; do
  [[ -x $tool ]] || { echo "snapshot_vs_pickle.sh: build $(basename "$tool") first ($tool)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "snapshot_vs_pickle.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
[[ $# -gt 0 ]] || { echo "usage: snapshot_vs_pickle.sh SNAPSHOT..." >&2; exit 2; }
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# median_of FILE COLUMN: the median of a column of "wall cpu rss_kb" lines.
median_of() {
  sort -g -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}
# timed NAME COMMAND...: RUNS runs, a process each; "wall cpu rss_kb" lines in $log/NAME.
timed() {
  local name=$1
  shift
  : >"$log/$name"
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %U %S %M' -o "$log/time" "$@" >"$log/out" || {
      cat "$log/out" >&2
      exit 2
    }
    awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$log/time" >>"$log/$name"
  done
}

rows=()
for f in "$@"; do
  [[ -f $f ]] || { echo "snapshot_vs_pickle.sh: no file $f" >&2; exit 2; }
  echo "== $f"
  mb=$(( $(stat -c %s "$f") / 1000000 ))
  "$bench" "$f" --runs "$runs" | tee "$log/ts"
  read_s=$(sed -n 's/^read: median \([0-9.]*\) s.*/\1/p' "$log/ts")
  timed summary "$cli" memory-stats "$f"
  timed peak "$cli" memory-stats "$f" --view peak
  for view in summary peak; do
    echo "memory-stats ($view): median $(median_of "$log/$view" 1) s, CPU $(median_of "$log/$view" 2) s," \
      "peak RSS $(( $(median_of "$log/$view" 3) / 1024 )) MB (wall: $(awk '{ printf "%s ", $1 }' "$log/$view"))"
  done
  cmd_s=$(median_of "$log/summary" 1) cmd_cpu=$(median_of "$log/summary" 2)
  cmd_rss=$(( $(median_of "$log/summary" 3) / 1024 ))
  peak_s=$(median_of "$log/peak" 1)
  py_s=- py_cpu=- py_rss=-
  if [[ $skip_above -gt 0 && $mb -gt $skip_above ]]; then
    echo "pickle.load: skipped (${mb} MB: more than SKIP_PICKLE_ABOVE_MB=$skip_above)"
  else
    # The figures once (the oracle takes a while), then the timed loads alone.
    "$python" "$here/pickle_reference.py" "$f" | tee "$log/py"
    timed pickle "$python" "$here/pickle_reference.py" "$f" --no-figures
    py_s=$(median_of "$log/pickle" 1) py_cpu=$(median_of "$log/pickle" 2)
    py_rss=$(( $(median_of "$log/pickle" 3) / 1024 ))
    echo "pickle.load process: median $py_s s, CPU $py_cpu s, peak RSS $py_rss MB" \
      "(wall: $(awk '{ printf "%s ", $1 }' "$log/pickle"))"
  fi
  rows+=("$mb $cmd_s $peak_s $read_s $py_s $cmd_cpu $py_cpu $cmd_rss $py_rss")
done
echo
printf '%8s %10s %7s %7s %9s %7s %7s %8s %10s %7s %8s %8s %11s\n' "size MB" "command s" "peak s" \
  "read s" "pickle s" "ratio" "(read)" "cmd CPU" "pickle CPU" "(CPU)" "cmd RSS" "cmd/file" "pickle/file"
for r in "${rows[@]}"; do
  read -r mb cmd_s peak_s read_s py_s cmd_cpu py_cpu cmd_rss py_rss <<<"$r"
  awk -v mb="$mb" -v c="$cmd_s" -v k="$peak_s" -v r="$read_s" -v p="$py_s" -v cc="$cmd_cpu" \
    -v pc="$py_cpu" -v cr="$cmd_rss" -v pr="$py_rss" 'BEGIN {
    ratio = (p == "-") ? "-" : sprintf("%.1fx", p / c)
    rratio = (p == "-") ? "-" : sprintf("%.1fx", p / r)
    cratio = (p == "-") ? "-" : sprintf("%.1fx", pc / cc)
    pf = (pr == "-") ? "-" : sprintf("%.2f", pr / mb)
    printf "%8d %10.2f %7.2f %7.3f %9s %7s %7s %8.2f %10s %7s %8d %8.2f %11s\n", mb, c, k, r, p,
      ratio, rratio, cc, pc, cratio, cr, cr / mb, pf }'
done
echo "(command: trainscope-cli memory-stats FILE, a process per run; peak: --view peak;"
echo " read: bench_snapshot_read's median read in one process; pickle: a python3 process"
echo " running pickle.load; ratio = pickle / command; CPU = user + sys seconds, medians)"
