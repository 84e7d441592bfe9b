#!/usr/bin/env bash
# The critical path's what-if against a real run (issue #46, docs/benchmarks.md).
# Run A: fp32. From A's profiled steps, the critical path predicts the step
# with the convolutions (aten::mkldnn_convolution, aten::convolution_backward)
# twice as fast, what one hopes bf16 gives. Run B: the same with bf16
# autocast, measured. Then the convolutions' real factor (B's self time per
# call over A's) is put into A's what-if: does the path model, given the true
# op times, predict B's step? What it cannot see is listed (ops that B adds:
# the casts autocast inserts).
#
# Usage: bench/critical_path_whatif.sh [steps]   Env: CLI, OUT (kept when given)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-14}
cli=${CLI:-build/default/app/trainscope-cli}
out=${OUT:-$(mktemp -d)}
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT
mkdir -p "$out"

run() { # name precision
  "$cli" run --preset synthetic-smoke --out "$out/$1" --no-progress \
    --set precision="$2" --set image_size=32 --set batch_size=64 \
    --set synthetic_samples=$((64 * steps)) --set max_steps="$steps" --set val_every=0 \
    --set profile.enabled=true --set profile.skip_first=$((steps - 4)) --set profile.wait=0 \
    --set profile.warmup=1 --set profile.active=3 --set profile.repeat=1 > /dev/null
}

echo "critical_path_whatif: run A (fp32), run B (bf16 autocast), $steps steps each"
run a fp32
run b bf16
convs=(aten::mkldnn_convolution aten::convolution_backward)
whatif() { # trace factor_a factor_b: the critical-path JSON of the first profiled step
  "$cli" trace-stats "$1" --view critical-path --format json \
    --what-if "op:${convs[0]}=$2" --what-if "op:${convs[1]}=$3"
}
"$cli" trace-stats "$out/a/trace.json" --format json > "$out/a_ops.json"
"$cli" trace-stats "$out/b/trace.json" --format json > "$out/b_ops.json"
factors=$(python3 - "$out" "${convs[@]}" <<'EOF'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
def per_call(path):
    rows = json.load(open(path))["rows"]
    return {r["name"]: r["self_cpu_ns"] / max(r["calls"], 1) for r in rows}
a, b = per_call(f"{out}/a_ops.json"), per_call(f"{out}/b_ops.json")
print(" ".join(f"{b[n] / a[n]:.4f}" for n in names))
EOF
)
read -r fa fb <<< "$factors"
whatif "$out/a/trace.json" 0.5 0.5 > "$out/guess.json"
whatif "$out/a/trace.json" "$fa" "$fb" > "$out/measured_factors.json"
python3 - "$out" "$fa" "$fb" <<'EOF'
import csv, json, statistics, sys
out, fa, fb = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def median_step(run):
    rows = list(csv.DictReader(open(f"{out}/{run}/steps.csv")))[2:]  # after the first two
    return statistics.median(float(r["step_ms"]) for r in rows)
def ops(run):
    return {r["name"]: r for r in json.load(open(f"{out}/{run}_ops.json"))["rows"]}
guess, real = json.load(open(f"{out}/guess.json")), json.load(open(f"{out}/measured_factors.json"))
a_step, b_step = median_step("a"), median_step("b")
step_ms = guess["step_duration_us"] / 1000
def predicted(j):  # the saving of the analysed step, applied to A's median step
    return a_step * (1 - j["what_if"]["saved_us"] / 1000 / step_ms)
a_ops, b_ops = ops("a"), ops("b")
added = sorted(((r["self_cpu_ns"] / 1e6 / max(int(json.load(open(f"{out}/b_ops.json"))["steps"]), 1), n)
                for n, r in b_ops.items() if n not in a_ops), reverse=True)[:3]
print(f"  A fp32, measured median step         {a_step:9.1f} ms")
print(f"  A's {guess['window']}: {step_ms:.1f} ms, critical path {guess['path_us']/1000:.1f} ms")
print(f"  predicted, convolutions x0.5         {predicted(guess):9.1f} ms")
print(f"  B bf16, measured median step         {b_step:9.1f} ms")
print(f"  measured factors (B/A per call)      mkldnn_convolution x{fa:.3f}, convolution_backward x{fb:.3f}")
print(f"  predicted with the measured factors  {predicted(real):9.1f} ms"
      f"  ({100 * (predicted(real) - b_step) / b_step:+.1f}% of B's)")
print("  ops B adds that A's graph cannot have (ms per step): " +
      ", ".join(f"{n} {ms:.1f}" for ms, n in added))
EOF
