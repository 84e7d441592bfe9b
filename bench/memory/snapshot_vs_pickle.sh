#!/usr/bin/env bash
# #48's read targets side by side in one run: Trainscope's snapshot reader
# (bench_snapshot_read) and Python's pickle.load on the same files, with the
# figures each read (they must agree). Make the files with make_snapshot.py.
#   bench/memory/snapshot_vs_pickle.sh SNAPSHOT... [RUNS=3 env]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${BENCH:-$root/build/default/bench/bench_snapshot_read}
runs=${RUNS:-3}
[[ -x $bench ]] || { echo "snapshot_vs_pickle.sh: build bench_snapshot_read first ($bench)" >&2; exit 2; }
[[ $# -gt 0 ]] || { echo "usage: snapshot_vs_pickle.sh SNAPSHOT..." >&2; exit 2; }
for f in "$@"; do
  [[ -f $f ]] || { echo "snapshot_vs_pickle.sh: no file $f" >&2; exit 2; }
  echo "== $f"
  "$bench" "$f" --runs "$runs"
  python3 "$here/pickle_reference.py" "$f" --runs "$runs"
done
