#!/usr/bin/env bash
# Decisions through noise on this machine, the scenario of issue #17: the
# optimization ladder on the quickstart preset from a one-thread baseline
# (where the intra-op threads rung is a real gain and the loader-workers rung
# is not), then three runs of one configuration compared with each other.
# Prints the ladder's noise floor, its table with each rung's gain interval,
# and the comparison's intervals with the run-to-run noise they measure.
#
# Usage: bench/noise_decisions.sh [steps] [rounds]
# Env: CLI (default build/default/app/trainscope-cli), OUT (kept when given).
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-10}
rounds=${2:-3}
cli=${CLI:-build/default/app/trainscope-cli}
if [[ -n "${OUT:-}" ]]; then
  out=$OUT
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

start=$(date +%s)
"$cli" ladder --preset quickstart --set threads=1 --steps "$steps" --warmup 3 \
  --rounds "$rounds" --no-progress --out "$out/ladder" > "$out/ladder.log"
echo "## Ladder (quickstart, threads=1 baseline, $steps steps per run, $rounds-$((rounds + 2)) rounds): $(( $(date +%s) - start )) s"
echo
sed -n '/^Noise floor/p' "$out/ladder/ladder.md"
echo
sed -n '/^| rung/,/^$/p' "$out/ladder/ladder.md"
sed -n '/^Best:/p' "$out/ladder/ladder.md"
echo

# The same configuration three times: what `compare` reported as findings
# before (throughput -10.3%, data wait +48.7%) is now measured as noise.
for run in a b c; do
  "$cli" run --preset quickstart --set max_steps=$(( steps * 3 )) --set epochs=1 \
    --set val_every=0 --no-progress --out "$out/same_$run" > /dev/null
done
echo "## Three runs of one configuration, compared"
echo
"$cli" compare "$out/same_a" "$out/same_b" "$out/same_c" --out "$out/compare" |
  sed -n '1,5p;/^Changes carry/p'
echo
sed -n '/^| throughput/p;/^| step/p;/^|   data wait/p;/^|   optimizer/p' "$out/compare/report.md"
