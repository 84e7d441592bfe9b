#!/usr/bin/env bash
# Installs dependencies, checks the style, builds everything and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/lint.sh format
start=$(date +%s)
scripts/build.sh default
echo "test.sh: build took $(( $(date +%s) - start )) s"
# clang-tidy over the core layers without LibTorch; the widgets and mains are
# checked by `scripts/lint.sh tidy` before a change is submitted.
scripts/lint.sh tidy --ci
echo "test.sh: build + clang-tidy took $(( $(date +%s) - start )) s"
export QT_QPA_PLATFORM=offscreen
ctest --preset default --timeout 900 -j 2
echo "test.sh: build + clang-tidy + tests took $(( $(date +%s) - start )) s"
# The readers of outside data under libFuzzer with ASan+UBSan (no LibTorch),
# 12 s per target over the checked-in seeds: see docs/reliability.md.
scripts/fuzz.sh --ci
echo "test.sh: build + clang-tidy + tests + fuzzing took $(( $(date +%s) - start )) s"
# ThreadSanitizer over the GUI's training bridge (a scripted backend and the
# real engine), the data-parallel blocks on two ranks and the trace reader's
# threads (tests/tsan/README.md).
scripts/tsan.sh --ci
echo "test.sh: build + clang-tidy + tests + fuzzing + TSan took $(( $(date +%s) - start )) s"
# LibTorch 2.x (#49): the pinned torch wheel (installed once into a cache
# outside the clone), the CLI and the LibTorch tests built against its CUDA
# LibTorch with CUDA code compiled and linked against /usr/local/cuda, and run
# (the tests that need a GPU skip without one; Kineto records the profiles).
scripts/torch2.sh all
echo "test.sh: build + clang-tidy + tests + fuzzing + TSan + LibTorch 2.x took $(( $(date +%s) - start )) s"
