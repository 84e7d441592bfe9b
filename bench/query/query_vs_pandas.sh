#!/usr/bin/env bash
# Issue #47's figures side by side in one run: Trainscope's SQL and area
# selection on a trace (bench_trace_query: GROUP BY name over every event,
# a whole step's area, the SQLite export's time and size) and Python doing
# the same with json.load and pandas (pandas_reference.py, what HTA does).
#   bench/query/query_vs_pandas.sh TRACE [PYTHON_WITH_PANDAS] [RUNS]
# The trace is opened once by Trainscope first, so that its figures are those
# of a trace already open (the index in the trace cache).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
trace=${1:?usage: query_vs_pandas.sh TRACE [PYTHON_WITH_PANDAS] [RUNS]}
python=${2:-python3}
runs=${3:-5}
bench=${BENCH:-$root/build/default/bench/bench_trace_query}
[[ -x $bench ]] || { echo "query_vs_pandas.sh: build bench_trace_query first ($bench)" >&2; exit 2; }
[[ -f $trace ]] || { echo "query_vs_pandas.sh: no trace at $trace" >&2; exit 2; }
"$python" -c 'import pandas' 2>/dev/null ||
  { echo "query_vs_pandas.sh: $python has no pandas (pip install pandas)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== Trainscope (bench_trace_query, $runs runs)"
/usr/bin/time -f "wall %e s, peak RSS %M KB" "$bench" "$trace" --runs "$runs" \
  --export "$out/trace.db" 2>&1 | tee "$out/trainscope.txt"
# The same step on both sides.
step=$(sed -n 's/^area: step \([0-9]*\),.*/\1/p' "$out/trainscope.txt" | head -1)
echo
echo "== Python: json.load + pandas ($runs runs)"
/usr/bin/time -f "wall %e s, peak RSS %M KB" "$python" "$here/pandas_reference.py" "$trace" \
  --runs "$runs" ${step:+--step "$step"}
