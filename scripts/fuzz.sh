#!/usr/bin/env bash
# Builds the libFuzzer targets of the torch-free readers (CMake preset `fuzz`:
# clang, ASan+UBSan, no LibTorch) into build/fuzz and runs each one over its
# seed corpus for a bounded time. Any finding (crash, sanitizer report,
# uncaught exception, timeout, leak, broken property) fails the script; the
# input is kept under build/fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   default 60 s, every target
#   scripts/fuzz.sh --ci                               CI: 12 s per target, then the
#                                                      sanitized tests (below)
#   scripts/fuzz.sh --tests                            the sanitized tests only
#
# The sanitized tests are a subset of the torch-free tests (the readers of
# outside data, the records a run keeps; fuzz/CMakeLists.txt) built against
# the same ASan+UBSan libraries.
#   scripts/fuzz.sh --seeds                            rewrite the generated seeds
#
# Inputs the fuzzer finds go to build/fuzz/corpus/<target>/ (reused by the
# next run), never into fuzz/corpus/, which holds the checked-in seeds.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
mode=run
# CI explores the same sequence of inputs every time (a fixed seed), so that a
# run fails for a change, not for luck; exploratory runs draw a new seed.
seed_args=()
tests=0
case "${1:-}" in
--ci) seconds=12; seed_args=(-seed=1); tests=1; shift ;;
--seeds) mode=seeds; shift ;;
--tests) mode=tests; tests=1; shift ;;
[0-9]*) seconds=$1; shift ;;
esac
all_targets=(chrome_trace trace_gzip trace_index overview_cache rank_summary config run_dir ncu_csv rank_folder dataset_files
  pickle memory_snapshot source_kind kineto_ipc probe_lines)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

build=build/fuzz
start=$(date +%s)
if [ ! -f $build/build.ninja ]; then
  cmake --preset fuzz >/dev/null
fi
build_targets=(fuzz_make_seeds)
[ $mode = tests ] || build_targets+=($(printf 'fuzz_%s ' "${targets[@]}"))
[ $tests = 0 ] || build_targets+=(trainscope_sanitized_tests)
set +e
nice -n 10 ninja -C $build -j "${FUZZ_JOBS:-$(nproc)}" "${build_targets[@]}" | grep -v '^\['
[ "${PIPESTATUS[0]}" = 0 ] || { echo "fuzz.sh: the build failed" >&2; exit 1; }
set -e
echo "fuzz.sh: build took $(( $(date +%s) - start )) s"

if [ $mode = seeds ]; then
  $build/fuzz/fuzz_make_seeds tests/data fuzz/corpus
  exit 0
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
failed=()
run_tests() {
  local log=$build/logs/sanitized_tests.log t0
  t0=$(date +%s)
  mkdir -p "$(dirname "$log")"
  if nice -n 10 $build/fuzz/trainscope_sanitized_tests --gtest_brief=1 >"$log" 2>&1; then
    echo "fuzz.sh: sanitized tests: $(grep -a -E '^\[  PASSED  \]' "$log" | tail -1), $(( $(date +%s) - t0 )) s"
  else
    echo "fuzz.sh: sanitized tests FAILED ($(( $(date +%s) - t0 )) s), log $log:" >&2
    grep -a -E 'FAILED|ERROR: (Address|Leak)Sanitizer|runtime error' "$log" | head -20 >&2
    failed+=("sanitized tests")
  fi
}
if [ $mode = tests ]; then
  run_tests
  [ ${#failed[@]} -eq 0 ] || exit 1
  exit 0
fi
# The targets run FUZZ_PARALLEL at a time (default: one per core), each on
# one core for its SECONDS, then are reported in order.
fuzz_one() {
  local target=$1 work=$build/corpus/$1 artifacts=$build/artifacts/$1 log=$build/logs/$1.log rc=0
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  nice -n 10 $build/fuzz/fuzz_$target "$work" "fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${seed_args[@]}" >"$log" 2>&1 || rc=$?
  echo $rc >"$log.rc"
}
parallel=${FUZZ_PARALLEL:-$(nproc)}
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  fuzz_one "$target" &
done
wait
printf '%-14s %10s %8s %8s %14s %s\n' target executions exec/s cov corpus result
for target in "${targets[@]}"; do
  artifacts=$build/artifacts/$target log=$build/logs/$target.log
  rc=$(cat "$log.rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  last=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
  result=ok
  if [ "$rc" -ne 0 ]; then
    result="FINDING (rc $rc): $(grep -a -m1 -E 'ERROR|property broken|deadly signal|uncaught|timeout|out-of-memory' "$log" || echo see log) -> $artifacts/, log $log"
    failed+=("$target")
  fi
  printf '%-14s %10s %8s %8s %14s %s\n' "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
    "${corp:-?}" "$result"
done
[ $tests = 0 ] || run_tests
echo "fuzz.sh: ${#targets[@]} targets, $seconds s each; total $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
