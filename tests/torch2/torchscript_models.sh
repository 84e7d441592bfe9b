#!/usr/bin/env bash
# TorchScript models scripted and saved by PyTorch 2.x train in Trainscope
# built on 2.x (#49): ResNet-18/34/50 (torchvision's architecture, 10 classes)
# and the transformer block, saved into a temp dir by the venv's torch
# (tests/data/models/make_torch2_models.py), each trained a few steps on
# synthetic CIFAR-shaped data with the CLI. Checks exit 0 and finite losses;
# prints per model the file size, the setup time (run start to the first
# step: data, model load, optimizer), the first step and the mean of the rest.
#
#   tests/torch2/torchscript_models.sh [CLI] [PYTHON]
#     CLI     default build/torch2/app/trainscope-cli (scripts/torch2.sh build)
#     PYTHON  default /var/cache/trainscope/torch-2.15.0/bin/python
# Env: STEPS (default 3), DEVICE (default cpu), BATCH (default 32), KEEP=1
# keeps the temp dir.
set -euo pipefail
cd "$(dirname "$0")/../.."
cli=${1:-build/torch2/app/trainscope-cli}
python=${2:-/var/cache/trainscope/torch-2.15.0/bin/python}
steps=${STEPS:-3}
device=${DEVICE:-cpu}
batch=${BATCH:-32}
[[ -x $cli ]] || { echo "torchscript_models: no CLI at $cli (scripts/torch2.sh build)" >&2; exit 2; }
"$python" -c 'import torch' 2>/dev/null || { echo "torchscript_models: $python has no torch" >&2; exit 2; }

dir=$(mktemp -d /tmp/trainscope_torch2_models.XXXXXX)
[[ ${KEEP:-0} == 1 ]] || trap 'rm -rf "$dir"' EXIT
echo "torchscript_models: $("$cli" env | grep -m1 -i libtorch || true)"
echo "torchscript_models: saving the models with torch $("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null) into $dir"
"$python" tests/data/models/make_torch2_models.py resnets "$dir/models" | sed 's/^/  /'
cp tests/data/models/torch2_transformer_block.pt "$dir/models/"

failed=0
printf '%-30s %10s %8s %10s %12s %10s  %s\n' model MB setup_s step1_ms mean_rest_ms wall_s losses
for model in resnet18 resnet34 resnet50 torch2_transformer_block; do
  file=$dir/models/$model.pt
  out=$dir/runs/$model
  start=$(date +%s.%N)
  if ! "$cli" run --preset synthetic-smoke --no-progress --set model=torchscript \
      --set model_path="$file" --set device="$device" --set batch_size="$batch" \
      --set max_steps="$steps" --set val_every=0 --set synthetic_samples=$((batch * steps)) \
      --out "$out" >"$dir/$model.log" 2>&1; then
    echo "$model: trainscope-cli run failed (exit $?):"; tail -20 "$dir/$model.log"
    failed=1; continue
  fi
  end=$(date +%s.%N)
  "$python" - "$out/steps.csv" "$file" "$start" "$end" "$model" "$steps" <<'EOF' || failed=1
import csv, math, os, sys
path, file, start, end, model, expected = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
losses = [float(r["loss"]) for r in rows]
ms = [float(r["step_ms"]) for r in rows]
setup = float(rows[0]["wall_s"]) - ms[0] / 1000 if rows else float("nan")
rest = sum(ms[1:]) / len(ms[1:]) if len(ms) > 1 else float("nan")
print(f"{model:30s} {os.path.getsize(file) / 1e6:10.2f} {setup:8.2f} {ms[0] if ms else math.nan:10.1f}"
      f" {rest:12.1f} {float(end) - float(start):10.2f}  {' '.join(f'{l:.4f}' for l in losses)}")
if len(rows) != int(expected) or not all(math.isfinite(l) for l in losses):
    sys.exit(f"{model}: {len(rows)} steps (expected {expected}), losses {losses}")
EOF
done
[[ $failed == 0 ]] && echo "torchscript_models: all four trained" || echo "torchscript_models: FAILED"
exit $failed
