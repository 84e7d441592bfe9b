#!/usr/bin/env bash
# Builds and runs the ThreadSanitizer tests (CMake preset `tsan`: GCC,
# -fsanitize=thread, into build/tsan; tests/tsan/README.md):
#
#   scripts/tsan.sh          everything: the trace reader's threads, the GUI
#                            bridge over a scripted backend and over the real
#                            engine, and the data-parallel blocks on two ranks
#                            (about 3 minutes of build on 2 cores the first
#                            time, 3 to run)
#   scripts/tsan.sh --ci     what CI runs: the same four programs, the trace
#                            reader's without reading every sample trace
#                            (2 minutes under TSan), about 1 minute to run
#
# Any report (data race, lock-order inversion, thread leak) fails the run;
# the logs are in build/tsan/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
[ "${1:-}" = "--ci" ] && mode=ci
build=build/tsan
targets=(tsan_trace_tests tsan_bridge_scripted tsan_bridge_engine tsan_distributed)

start=$(date +%s)
[ -f $build/build.ninja ] || cmake --preset tsan >/dev/null
set +e
nice -n 10 ninja -C $build -j "${TSAN_JOBS:-$(nproc)}" "${targets[@]}" | grep -v '^\['
[ "${PIPESTATUS[0]}" = 0 ] || { echo "tsan.sh: the build failed" >&2; exit 1; }
set -e
echo "tsan.sh: build took $(( $(date +%s) - start )) s"

# halt_on_error: the first report fails the test program (exit 66), so a race
# cannot hide behind a passing assertion. LibTorch's OpenMP threads are not
# instrumented: one thread keeps its parallel regions inline.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4 suppressions=$PWD/tests/tsan/tsan.supp ${TSAN_OPTIONS:-}"
export OMP_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen
mkdir -p $build/logs
failed=()
run() {
  local name=$1; shift
  local log=$build/logs/$name.log t0
  t0=$(date +%s)
  if nice -n 10 "$@" >"$log" 2>&1; then
    echo "tsan.sh: $name passed ($(( $(date +%s) - t0 )) s)"
  else
    echo "tsan.sh: $name FAILED ($(( $(date +%s) - t0 )) s), log $log:" >&2
    # No report or failed assertion to quote (a crash, TSan's own fatal
    # error): the log's end. Never a reason for set -e to stop here.
    { grep -a -E -A12 'WARNING: ThreadSanitizer|FAILED' "$log" || tail -n 40 "$log"; } |
      head -60 >&2 || true
    failed+=("$name")
  fi
}
# The reader's tests that run its threads: the parallel pipeline on a trace
# cut into many chunks, gzip, a cancel mid-read, malformed input handed back
# to the sequential reader, the index and the cache, a rank folder read in
# parallel into summaries and merged (reading every sample trace, 2 minutes
# under TSan, runs outside CI only).
filter='TraceThreads.*:FastTraceReader.TheSampleTraceIsReallyCutIntoManyChunks'
filter+=':FastTraceReader.GzipFilesReadTheSame:FastTraceReader.CancelMidReadStopsEveryThread'
filter+=':FastTraceReader.MalformedInputsGiveTheSameErrors:TraceCacheTest.*'
filter+=':TraceIndex.RoundTripReproducesEveryTrace:ThreadPool.*:BackgroundWrites.*:Cancel.*'
filter+=':RankFolderTest.*'
[ $mode = ci ] || filter+=':FastTraceReader.EverySampleTraceReadsTheSame'
run tsan_trace_tests $build/tests/tsan/tsan_trace_tests --gtest_brief=1 --gtest_filter="$filter"
run tsan_bridge_scripted $build/tests/tsan/tsan_bridge_scripted --gtest_brief=1
run tsan_bridge_engine $build/tests/tsan/tsan_bridge_engine --gtest_brief=1
run tsan_distributed $build/tests/tsan/tsan_distributed --gtest_brief=1
echo "tsan.sh: took $(( $(date +%s) - start )) s"
[ ${#failed[@]} -eq 0 ] || { echo "tsan.sh: failed: ${failed[*]}" >&2; exit 1; }
