#!/usr/bin/env bash
# Installs dependencies, checks the style, builds everything and runs every test.
# Each stage prints its own time and the time so far (README.md, "The two
# commands", has what each costs on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
stage() {
  local name=$1 t0=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $((SECONDS - t0)) s ($((SECONDS - start)) s in all)"
}
stage "installing packages" scripts/install-deps.sh
# The pinned torch wheel for the LibTorch 2.x stage at the end is a 3 GB
# download: it comes in while the stages before it compile, and is waited
# for (and its output shown) before that stage.
mkdir -p build
wheel_log=build/torch2-install.log
scripts/torch2.sh install >"$wheel_log" 2>&1 &
wheel_pid=$!
# A stage that fails ends the script: the download goes with it (the next
# install starts it again; torch2.sh checks what is installed, not what began).
trap 'pkill -P "$wheel_pid" 2>/dev/null || true; kill "$wheel_pid" 2>/dev/null || true' EXIT
stage "the style check" scripts/lint.sh format
stage "the build" scripts/build.sh default
# clang-tidy over the core layers without LibTorch; the widgets and mains are
# checked by `scripts/lint.sh tidy` before a change is submitted.
stage "clang-tidy" scripts/lint.sh tidy --ci
export QT_QPA_PLATFORM=offscreen
stage "the tests" ctest --preset default --timeout 900 -j 2
# The readers of outside data under libFuzzer with ASan+UBSan (no LibTorch),
# 12 s per target over the checked-in seeds: see docs/reliability.md.
stage "fuzzing and the sanitized tests" scripts/fuzz.sh --ci
# ThreadSanitizer over the GUI's training bridge (a scripted backend and the
# real engine), the data-parallel blocks on two ranks and the trace reader's
# threads (tests/tsan/README.md).
stage "TSan" scripts/tsan.sh --ci
# LibTorch 2.x (#49): the pinned torch wheel (installed once into a cache
# outside the clone), the CLI and the LibTorch tests built against its CUDA
# LibTorch with CUDA code compiled and linked against /usr/local/cuda, and run
# (the tests that need a GPU skip without one; Kineto records the profiles).
wait_for_wheel() {
  local rc=0
  wait "$wheel_pid" || rc=$?
  cat "$wheel_log"
  return $rc
}
stage "waiting for the torch wheel" wait_for_wheel
stage "LibTorch 2.x: build" scripts/torch2.sh build
stage "LibTorch 2.x: tests" scripts/torch2.sh test
