#!/usr/bin/env bash
# Trainscope on LibTorch 2.x against PyTorch 2.x in Python, eager and under
# torch.compile, and against Trainscope on Debian's LibTorch 1.13 (#49): the
# same model, stem, batch, precision, memory format, threads, synthetic data,
# SGD momentum 0.9 + weight decay 5e-4 and warm-up/measured steps on every
# side. Per configuration the sides run one after another, `rounds` times,
# each round starting at the next side, so machine noise hits all of them.
# Prints per configuration each side's median images/s over the rounds (a
# run's figure is the median over its measured steps), the ratios, the median
# torch.compile time (left out of its rate) and the 1-minute load average
# seen before and after the configuration.
#
# Usage: bench/engine_vs_pytorch2.sh [rounds] [steps]
# Env: CLI2 (default build/torch2/app/trainscope-cli; scripts/torch2.sh build),
#      CLI1 (default build/default/app/trainscope-cli),
#      PY2 (default /var/cache/trainscope/torch-2.15.0/bin/python: a torch 2.x
#      with torchvision's models, see docs/benchmarks.md),
#      THREADS (intra-op threads on every side, default nproc; PyTorch 1.13's
#      own default is one per physical core as it counts them),
#      SIDES (default "ts2 ts1 eager compile"; also eager_fused: eager with
#      torch.optim.SGD(fused=True), and ts2_loop: Trainscope on 2.x with
#      fused_optimizer=false, i.e. torch::optim::SGD's per-parameter loop;
#      these two get columns of their own after the others),
#      CONFIGS ("model stem batch precision layout;..." with layout nchw or
#      cl (channels-last); default resnet18, both stems, batch 32 and 128,
#      fp32 and bf16, both layouts: 16),
#      COMPILE_CONFIGS (the configurations where torch.compile runs, same
#      form; default all; "-" in its column elsewhere),
#      STEPS_AT ("batch=steps ..." overrides of `steps` per batch size, e.g.
#      "128=4"), RAW (a file to append every run's figure to),
#      TORCHINDUCTOR_CACHE_DIR (passed through: a warm cache makes the
#      compile time the cache's, not a cold compile's),
#      QUIET_WAIT (seconds, default 0 = off: before each run wait up to this
#      long for a second in which other processes use under QUIET_BUSY percent
#      of the CPUs, default 20; for a machine others compile on, where a run
#      that overlaps a build measures a third of the rate; each run's wait and
#      the busy share it started at go to RAW).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
steps_default=${2:-8}
warmup=3
cli2=${CLI2:-build/torch2/app/trainscope-cli}
cli1=${CLI1:-build/default/app/trainscope-cli}
py2=${PY2:-/var/cache/trainscope/torch-2.15.0/bin/python}
threads=${THREADS:-$(nproc)}
read -r -a sides <<<"${SIDES:-ts2 ts1 eager compile}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
raw=${RAW:-$out/raw}

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# One JSON document on stdin (trainscope-cli's, indented) or JSON lines (the last wins).
json() {
  /usr/bin/python3 -c "import json,sys
t = sys.stdin.read().strip()
try: d = json.loads(t)
except ValueError: d = json.loads(t.splitlines()[-1])
print($1)"
}
load1() { cut -d' ' -f1 /proc/loadavg; }
cpu_ticks() { awk '/^cpu / {print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat; }
busy_pct() {  # percent of the CPUs busy over one second (this script sleeps meanwhile)
  local t0 i0 t1 i1
  read -r t0 i0 < <(cpu_ticks); sleep 1; read -r t1 i1 < <(cpu_ticks)
  awk -v t=$(( t1 - t0 )) -v i=$(( i1 - i0 )) 'BEGIN {printf "%d", t ? 100 * (t - i) / t : 0}'
}
quiet() {  # waits for a quiet second (QUIET_WAIT); prints "waited_s busy_pct"
  local start=$SECONDS b
  b=$(busy_pct)
  while [ "${QUIET_WAIT:-0}" -gt 0 ] && [ "$b" -ge "${QUIET_BUSY:-20}" ] &&
        [ $(( SECONDS - start )) -lt "$QUIET_WAIT" ]; do
    sleep 2; b=$(busy_pct)
  done
  echo "$(( SECONDS - start )) $b"
}
steps_for() {  # batch
  local s=$steps_default kv
  for kv in ${STEPS_AT:-}; do [ "${kv%%=*}" = "$1" ] && s=${kv#*=}; done
  echo "$s"
}

trainscope_once() {  # cli model stem batch precision layout steps [fused_optimizer]
  local cli=$1 steps=$7
  "$cli" run --preset synthetic-smoke --out "$out/run" --json --no-progress \
    --set model="$2" --set stem="$3" --set batch_size="$4" --set precision="$5" \
    --set channels_last=$([ "$6" = cl ] && echo true || echo false) \
    --set synthetic_samples=$(( $4 * (steps + warmup) )) --set image_size=32 \
    --set max_steps=$(( steps + warmup )) --set warmup_steps_excluded=$warmup \
    --set val_every=0 --set augment=false --set workers=0 --set threads="$threads" \
    --set lr=0.01 --set schedule=constant --set fused_optimizer="${8:-true}" 2>"$out/ts.err" >"$out/ts.json" ||
    { echo "$cli failed on ${*:2}:" >&2; cat "$out/ts.err" >&2; exit 1; }
  json 'd["median_images_per_sec"]' <"$out/ts.json" ||
    { echo "no median_images_per_sec from $cli on ${*:2}" >&2; exit 1; }
  rm -rf "$out/run"
}

pytorch_once() {  # python compile(0/1/fused) model stem batch precision layout steps
  local py=$1 extra=()
  [ "$2" = 1 ] && extra+=(--compile)
  [ "$2" = fused ] && extra+=(--sgd fused)
  [ "$7" = cl ] && extra+=(--channels-last)
  "$py" bench/pytorch_reference.py --model "$3" --stem "$4" --batch "$5" --precision "$6" \
    --threads "$threads" --warmup $warmup --steps "$8" "${extra[@]}" \
    >"$out/pt.json" 2>"$out/pt.err" ||
    { echo "pytorch_reference.py ($py${extra[*]:+ ${extra[*]}}) failed on ${*:3}:" >&2
      tail -20 "$out/pt.err" >&2; exit 1; }
  if [ "$2" = 1 ]; then
    json 'd["images_per_sec"], d["compile_s"]' <"$out/pt.json" >>"$out/compile_s.tmp"
    tail -1 "$out/compile_s.tmp" | cut -d' ' -f1
    tail -1 "$out/compile_s.tmp" | cut -d' ' -f2 >>"$out/compile_s"
  else
    json 'd["images_per_sec"]' <"$out/pt.json"
  fi
}

side_once() {  # side model stem batch precision layout steps
  local side=$1; shift
  case $side in
  ts2) trainscope_once "$cli2" "$@" ;;
  ts1) trainscope_once "$cli1" "$@" ;;
  ts2_loop) trainscope_once "$cli2" "$@" false ;;
  eager_fused) pytorch_once "$py2" fused "$@" ;;
  eager) pytorch_once "$py2" 0 "$@" ;;
  compile) pytorch_once "$py2" 1 "$@" ;;
  esac
}

default_configs=""
for precision in fp32 bf16; do for stem in cifar imagenet; do for batch in 32 128; do
  for layout in nchw cl; do
    default_configs+="resnet18 $stem $batch $precision $layout;"
  done
done; done; done
IFS=';' read -r -a configs <<<"${CONFIGS:-$default_configs}"
compile_configs=";${COMPILE_CONFIGS:-${CONFIGS:-$default_configs}};"

ts2v=$("$cli2" env 2>/dev/null | grep -m1 -i libtorch | tr -s " " || true)
ts1v=$("$cli1" env 2>/dev/null | grep -m1 -i libtorch | tr -s " " || true)
echo "rounds $rounds, $warmup warm-up + $steps_default measured steps${STEPS_AT:+ (batch=steps: $STEPS_AT)}," \
  "threads $threads on every side, $(nproc) cores; sides: ${sides[*]}"
echo "ts2: $cli2 (${ts2v:-?}); ts1: $cli1 (${ts1v:-?}); python: $py2 (torch" \
  "$("$py2" -c 'import torch; print(torch.__version__)' 2>/dev/null))"
extras=()  # the optional sides, in SIDES' order, each with its ratio to ts2
for s in "${sides[@]}"; do [[ $s == eager_fused || $s == ts2_loop ]] && extras+=("$s"); done
extra_head=""
for s in "${extras[@]}"; do extra_head+=$(printf " %11s %11s" "$s" "ts2/$s"); done
printf "%-9s %-8s %5s %-4s %-4s %9s %9s %9s %9s %7s %7s %7s %7s %8s %9s%s\n" model stem batch \
  prec mem ts2 ts1 eager compile ts2/eag ts2/cmp ts2/ts1 cmp/eag compile_s load "$extra_head"
all_loads=()
for config in "${configs[@]}"; do
  [ -n "${config// /}" ] || continue
  set -- $config
  steps=$(steps_for "$3")
  for s in "${sides[@]}"; do : >"$out/$s"; done
  : >"$out/compile_s"; : >"$out/compile_s.tmp"
  l0=$(load1); all_loads+=("$l0")
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#sides[@]}; k++)); do
      s=${sides[$(( (k + r) % ${#sides[@]} ))]}
      if [ "$s" = compile ] && [[ "$compile_configs" != *";$config;"* ]]; then continue; fi
      q=$(quiet)
      v=$(side_once "$s" "$@" "$steps")
      echo "$v" >>"$out/$s"
      echo "$* steps=$steps round=$r side=$s images_per_sec=$v load=$(load1)" \
        "waited_s=${q% *} busy_pct=${q#* }" >>"$raw"
    done
  done
  l1=$(load1); all_loads+=("$l1")
  declare -A m=()
  for s in ts2 ts1 eager compile "${extras[@]}"; do
    m[$s]=$( [ -s "$out/$s" ] 2>/dev/null && median <"$out/$s" || echo -)
  done
  cs=$( [ -s "$out/compile_s" ] && median <"$out/compile_s" || echo -)
  ratio() { [ "$1" = - ] || [ "$2" = - ] && echo - || awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
  num() { [ "$1" = - ] && echo - || awk -v a="$1" 'BEGIN {printf "%.1f", a}'; }
  extra_cols=""
  for s in "${extras[@]}"; do
    extra_cols+=$(printf " %11s %11s" "$(num "${m[$s]}")" "$(ratio "${m[ts2]}" "${m[$s]}")")
  done
  printf "%-9s %-8s %5s %-4s %-4s %9s %9s %9s %9s %7s %7s %7s %7s %8s %9s%s\n" "$@" \
    "$(num "${m[ts2]}")" "$(num "${m[ts1]}")" "$(num "${m[eager]}")" "$(num "${m[compile]}")" \
    "$(ratio "${m[ts2]}" "${m[eager]}")" "$(ratio "${m[ts2]}" "${m[compile]}")" \
    "$(ratio "${m[ts2]}" "${m[ts1]}")" "$(ratio "${m[compile]}" "${m[eager]}")" \
    "$(num "$cs")" "$l0-$l1" "$extra_cols"
  unset m
done
printf '%s\n' "${all_loads[@]}" | sort -g |
  awk '{a[NR]=$1} END {printf "1-minute load average: min %s, median %s, max %s\n", a[1], a[int((NR+1)/2)], a[NR]}'
