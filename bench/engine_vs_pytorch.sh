#!/usr/bin/env bash
# Trainscope's engine against plain PyTorch eager on the same model, batch,
# threads and precision, alternating the two so machine noise hits both.
# Prints median images/s of each and the ratio (Trainscope / PyTorch).
#
# Usage: bench/engine_vs_pytorch.sh [rounds] [steps]
# Env: CLI (default build/default/app/trainscope-cli), THREADS (default: LibTorch's),
#      CONFIGS ("model stem batch precision;..." to measure only those),
#      PYTORCH_ENV (variables for the PyTorch side, e.g. the glibc settings that
#      Trainscope's retain_host_memory applies: "MALLOC_MMAP_MAX_=0
#      MALLOC_TRIM_THRESHOLD_=2147483647"), TS_SET (extra --set for Trainscope,
#      e.g. "retain_host_memory=false").
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
steps=${2:-8}
warmup=3
cli=${CLI:-build/default/app/trainscope-cli}
threads=${THREADS:-0}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

trainscope_once() {  # model stem batch precision
  "$cli" run --preset synthetic-smoke --out "$out/run" --json --no-progress \
    --set model="$1" --set stem="$2" --set batch_size="$3" --set precision="$4" \
    --set synthetic_samples=$(( $3 * (steps + warmup) )) --set image_size=32 \
    --set max_steps=$(( steps + warmup )) --set warmup_steps_excluded=$warmup \
    --set val_every=0 --set augment=false --set workers=0 --set threads="$threads" \
    --set lr=0.01 --set schedule=constant ${TS_SET:+--set "$TS_SET"} \
    2>"$out/ts.err" >"$out/ts.json" ||
    { echo "trainscope-cli failed on $*:" >&2; cat "$out/ts.err" >&2; exit 1; }
  <"$out/ts.json" \
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["median_images_per_sec"])'
  rm -rf "$out/run"
}

pytorch_once() {
  env ${PYTORCH_ENV:-} /usr/bin/python3 bench/pytorch_reference.py --model "$1" --stem "$2" --batch "$3" \
    --precision "$4" --threads "$threads" --warmup $warmup --steps "$steps" |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["images_per_sec"])'
}

printf "%-10s %-9s %5s %-5s %12s %12s %7s\n" model stem batch prec trainscope pytorch ratio
default_configs="resnet18 cifar 32 fp32;resnet18 cifar 128 fp32;resnet18 imagenet 32 fp32;\
resnet18 imagenet 128 fp32;resnet18 cifar 32 bf16;resnet18 cifar 128 bf16;\
resnet18 imagenet 32 bf16;resnet18 imagenet 128 bf16"
IFS=';' read -r -a configs <<<"${CONFIGS:-$default_configs}"
for config in "${configs[@]}"; do
  set -- $config
  : >"$out/ts"; : >"$out/pt"
  for ((r = 0; r < rounds; r++)); do
    trainscope_once "$@" >>"$out/ts"
    pytorch_once "$@" >>"$out/pt"
  done
  ts=$(median <"$out/ts"); pt=$(median <"$out/pt")
  printf "%-10s %-9s %5s %-5s %12.1f %12.1f %7.3f\n" "$@" "$ts" "$pt" \
    "$(awk -v a="$ts" -v b="$pt" 'BEGIN {print a / b}')"
done
