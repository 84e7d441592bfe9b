#!/usr/bin/env bash
# A training step through the GUI's LibTorch module against the same run from
# trainscope-cli built on the same LibTorch (#65: within 2% on LibTorch 2.x).
# The GUI is the user's path: `trainscope --run` offscreen, with its Live view
# charting every step, loading the module named by MODULE; the CLI is the
# LibTorch build's own. The two alternate, `rounds` times, each round
# starting with the other side, so machine noise hits both. A run's figure is
# run.json's median step time over its measured steps; printed per side are
# the median over the rounds, every round's figure and the ratio GUI / CLI.
#
# Usage: bench/gui/gui_vs_cli_step.sh [rounds] [steps]
# Env: GUI (default build/default/app/trainscope),
#      MODULE (default build/torch2/app/libtrainscope_torch_backend-*.so),
#      CLI (default build/torch2/app/trainscope-cli),
#      CONFIG ("model stem batch precision", default "resnet18 cifar 64 fp32"),
#      THREADS (intra-op threads on both sides, default nproc).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
steps=${2:-30}
warmup=5
gui=${GUI:-build/default/app/trainscope}
cli=${CLI:-build/torch2/app/trainscope-cli}
module=${MODULE:-$(ls build/torch2/app/libtrainscope_torch_backend-*.so 2>/dev/null | head -1)}
threads=${THREADS:-$(nproc)}
read -r model stem batch precision <<<"${CONFIG:-resnet18 cifar 64 fp32}"
for f in "$gui" "$cli" "$module"; do
  [ -e "$f" ] || { echo "gui_vs_cli_step: $f is missing (scripts/build.sh default; scripts/torch2.sh build)" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

settings=(--preset synthetic-smoke --set model="$model" --set stem="$stem" --set batch_size="$batch"
  --set precision="$precision" --set synthetic_samples=$(( batch * (steps + warmup) ))
  --set image_size=32 --set max_steps=$(( steps + warmup )) --set warmup_steps_excluded=$warmup
  --set val_every=0 --set augment=false --set workers=0 --set threads="$threads"
  --set lr=0.01 --set schedule=constant)

step_ms() {  # run.json's steady-state median step time
  /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary']['median_step_ms'])" "$1"
}
gui_once() {
  rm -rf "$out/gui"
  QT_QPA_PLATFORM=offscreen TRAINSCOPE_TORCH_BACKEND="$PWD/$module" "$gui" \
    --settings "$out/gui.ini" --runs-dir "$out/gui" --no-checkpoints --view live --run \
    --quit-when-done "${settings[@]}" >"$out/gui.log" 2>&1 ||
    { echo "the GUI failed:" >&2; tail -20 "$out/gui.log" >&2; exit 1; }
  step_ms "$(ls -d "$out"/gui/*/run.json | head -1)"
}
cli_once() {
  rm -rf "$out/cli"
  "$cli" run --out "$out/cli" --no-progress "${settings[@]}" >"$out/cli.log" 2>&1 ||
    { echo "$cli failed:" >&2; tail -20 "$out/cli.log" >&2; exit 1; }
  step_ms "$out/cli/run.json"
}
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "GUI $gui on $(basename "$module"), CLI $cli; $model $stem batch $batch $precision," \
     "$threads threads, $warmup warm-up + $steps measured steps, $rounds rounds; load $(cut -d' ' -f1 /proc/loadavg)"
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then g=$(gui_once); c=$(cli_once); else c=$(cli_once); g=$(gui_once); fi
  echo "$g" >>"$out/g"; echo "$c" >>"$out/c"
  printf 'round %d: GUI %.2f ms, CLI %.2f ms\n' "$((r + 1))" "$g" "$c"
done
mg=$(median <"$out/g"); mc=$(median <"$out/c")
awk -v g="$mg" -v c="$mc" 'BEGIN {printf "median step: GUI %.2f ms, CLI %.2f ms, GUI / CLI %.3f\n", g, c, g / c}'
echo "load after $(cut -d' ' -f1 /proc/loadavg)"
