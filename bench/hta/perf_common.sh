# Sourced by the perf_*_vs_hta.sh scripts with their arguments still in
# "$@" (TRAINSCOPE_CLI HTA_PYTHON TRACE [RUNS] ...): checks them (too few:
# the calling script's header as usage, exit 2) and sets cli, hta_python,
# trace and runs; then a work folder (removed at exit; KEEP=1 keeps it and
# prints its path) with the trace alone in hta_trace/ (HTA reads every
# .json/.json.gz of a folder) and cache/ for Trainscope's index; and the
# timing helpers.

if [[ $# -lt 3 ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
cli=$(realpath "$1")
hta_python=$2
trace=$(realpath "$3")
runs=${4:-3}
[[ -x $cli ]] || { echo "not executable: $cli" >&2; exit 2; }
[[ -f $trace ]] || { echo "no such trace: $trace" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

work=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then echo "work folder: $work" >&2
else trap 'rm -rf "$work"' EXIT; fi

mkdir -p "$work/hta_trace" "$work/cache"
case $trace in
  *.json.gz) ln -s "$trace" "$work/hta_trace/trace.json.gz" ;;
  *.json) ln -s "$trace" "$work/hta_trace/trace.json" ;;
  *) echo "the trace must end in .json or .json.gz" >&2; exit 2 ;;
esac

# run_timed NAME COMMAND...: runs it under /usr/bin/time -v; appends
# "wall_s rss_mb" to $work/NAME.times, keeps stdout in NAME.out, stderr in NAME.err.
run_timed() {
  local name=$1; shift
  /usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" ||
    { echo "failed: $*" >&2; tail -20 "$work/$name.err" >&2; exit 1; }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0
                               for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    /Maximum resident set size/ { rss = $2 / 1024 }
    END { printf "%.3f %.1f\n", wall, rss }' "$work/$name.time" >>"$work/$name.times"
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
col_median() { awk -v c="$2" '{print $c}' "$work/$1.times" | median; }
