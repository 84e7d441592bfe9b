#!/usr/bin/env bash
# Trainscope's data-parallel runs (run --nproc-per-node W) against PyTorch
# DistributedDataParallel on gloo (bench/ddp_reference.py), at the same model,
# per-rank batch, precision and threads per rank (cores / W), alternating the
# two so machine noise hits both. World 1 is one process on both sides.
# Prints per world size the median global images/s of each side, the ratio
# (Trainscope / PyTorch), each side's speedup over one process (global rate at
# W over the rate at 1) and scaling efficiency (speedup / W), and Trainscope's
# allreduce time in flight and the share of it hidden behind backward, per step.
# With the default threads the ranks share the machine's cores (the ideal
# speedup is 1: what data-parallel costs on one machine); THREADS=1 gives every
# rank one core of its own, as if each had its own machine (the ideal is W).
#
# Usage: bench/data_parallel_vs_ddp.sh [rounds] [steps]
# Env: CLI (default build/default/app/trainscope-cli), WORLDS (default "1 2"),
#      CONFIG ("model stem batch precision", default "resnet18 cifar 32 fp32"),
#      THREADS (per rank; default 0 = cores / world on both sides),
#      PY (the Python of the DDP side, default /usr/bin/python3 with PyTorch
#      1.13; e.g. /var/cache/trainscope/torch-2.15.0/bin/python for PyTorch 2.x
#      against CLI=build/torch2/app/trainscope-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
steps=${2:-10}
warmup=3
cli=${CLI:-build/default/app/trainscope-cli}
worlds=${WORLDS:-1 2}
threads=${THREADS:-0}
read -r model stem batch precision <<<"${CONFIG:-resnet18 cifar 32 fp32}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
py=${PY:-/usr/bin/python3}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
field() { $py -c "import json,sys; d=json.load(open('$1')); print($2)"; }

trainscope_once() {  # world
  local launch=()
  [ "$1" -gt 1 ] && launch=(--nproc-per-node "$1")
  "$cli" run --preset synthetic-smoke --out "$out/run" --json --no-progress "${launch[@]}" \
    --set model="$model" --set stem="$stem" --set batch_size="$batch" \
    --set precision="$precision" \
    --set synthetic_samples=$(( batch * $1 * (steps + warmup) )) --set image_size=32 \
    --set max_steps=$(( steps + warmup )) --set warmup_steps_excluded=$warmup \
    --set val_every=0 --set augment=false --set workers=0 --set threads="$threads" \
    --set lr=0.01 --set schedule=constant 2>"$out/ts.err" >"$out/ts.json" ||
    { echo "trainscope-cli failed at world $1:" >&2; cat "$out/ts.err" >&2; exit 1; }
  field "$out/ts.json" 'd["median_images_per_sec"]' >>"$out/ts.$1"
  if [ "$1" -gt 1 ]; then
    field "$out/ts.json" \
      'sum(r["allreduce_ms_per_step"] for r in d["distributed"]["ranks"])/len(d["distributed"]["ranks"])' \
      >>"$out/ar.$1"
    field "$out/ts.json" \
      'sum(r["overlap_pct"] for r in d["distributed"]["ranks"])/len(d["distributed"]["ranks"])' \
      >>"$out/ov.$1"
  fi
  rm -rf "$out/run"
}

pytorch_once() {  # world
  $py bench/ddp_reference.py --world "$1" --model "$model" --stem "$stem" --batch "$batch" \
    --precision "$precision" --threads "$threads" --warmup $warmup --steps "$steps" \
    --port $(( 29500 + RANDOM % 2000 )) >"$out/pt.json" 2>"$out/pt.err" ||
    { echo "ddp_reference.py failed at world $1:" >&2; cat "$out/pt.err" >&2; exit 1; }
  field "$out/pt.json" 'd["images_per_sec"]' >>"$out/pt.$1"
}

echo "$cli against $($py -c 'import torch; print("torch", torch.__version__)') DDP"
echo "$model $stem, batch $batch per rank, $precision; $rounds rounds of $warmup+$steps steps;" \
  "$(nproc) cores, threads per rank: $([ "$threads" = 0 ] && echo "cores / world" || echo "$threads")"
for ((r = 0; r < rounds; r++)); do
  for w in $worlds; do
    trainscope_once "$w"
    pytorch_once "$w"
  done
done
printf "%5s %13s %13s %6s %8s %8s %7s %7s %12s %9s\n" world "trainscope/s" "pytorch/s" ratio \
  "ts speed" "pt speed" "ts eff" "pt eff" "allreduce ms" "overlap %"
ts1=""; pt1=""
for w in $worlds; do
  ts=$(median <"$out/ts.$w"); pt=$(median <"$out/pt.$w")
  [ "$w" = 1 ] && { ts1=$ts; pt1=$pt; }
  # speedup over one process and efficiency (speedup / world), "-" without world 1
  rel() { [ -n "$2" ] && awk -v a="$1" -v b="$2" -v w="$3" 'BEGIN {printf "%.3f", a / (w * b)}' || echo -; }
  ar=-; ov=-
  if [ -f "$out/ar.$w" ]; then
    ar=$(median <"$out/ar.$w" | awk '{printf "%.1f", $1}')
    ov=$(median <"$out/ov.$w" | awk '{printf "%.1f", $1}')
  fi
  printf "%5s %13.1f %13.1f %6.3f %8s %8s %7s %7s %12s %9s\n" "$w" "$ts" "$pt" \
    "$(awk -v a="$ts" -v b="$pt" 'BEGIN {print a / b}')" "$(rel "$ts" "$ts1" 1)" \
    "$(rel "$pt" "$pt1" 1)" "$(rel "$ts" "$ts1" "$w")" "$(rel "$pt" "$pt1" "$w")" "$ar" "$ov"
done
