#!/usr/bin/env bash
# The CUDA check. CI has no GPU and builds against Debian's LibTorch 1.13 (CPU);
# this builds the headless CLI and the LibTorch tests against the CUDA LibTorch
# inside a lent GPU machine's PyTorch 2.x wheel, trains on its GPU and runs the
# tests there (docs/architecture.md, "LibTorch 2.x").
#
#   scripts/cuda-check.sh --pack    here (Debian 12): copy the dependencies the GPU
#                                   machine lacks into .cuda-deps/ (git-ignored)
#   scripts/cuda-check.sh build     there: configure and build into build/cuda
#   scripts/cuda-check.sh runs      there: train on the GPU, read the traces back
#   scripts/cuda-check.sh tests     there: the LibTorch tests (ctest)
#   scripts/cuda-check.sh all       there: the three, then the logs packed into
#                                   cuda-check-logs.tgz (the device tool brings
#                                   back 8 files at most)
#
# Logs go to $OUT (the device tool's folder) or build/cuda-check-out.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
deps=$root/.cuda-deps
out=$(realpath -m "${OUT:-$root/build/cuda-check-out}")
build=$root/build/cuda
cli=$build/app/trainscope-cli
mkdir -p "$out"

pack() {
  local lib=/usr/lib/x86_64-linux-gnu
  rm -rf "$deps"
  mkdir -p "$deps/include" "$deps/gloo/include" "$deps/zlib/include" "$deps/lib/x86_64-linux-gnu/cmake"
  # Header-only libraries: TRAINSCOPE_DEPS_DIR puts $deps/include on every path.
  cp -r /usr/include/nlohmann /usr/include/CLI "$deps/include/"
  # GoogleTest, keeping Debian's layout (its CMake files find the libraries
  # relative to themselves).
  cp -r /usr/include/gtest /usr/include/gmock "$deps/include/"
  cp "$lib"/libgtest*.a "$lib"/libgmock*.a "$deps/lib/x86_64-linux-gnu/"
  cp -r "$lib/cmake/GTest" "$deps/lib/x86_64-linux-gnu/cmake/"
  # Used only where the wheel has no gloo or zlib headers of its own: apart, so
  # that they never shadow the wheel's.
  cp -r /usr/include/gloo "$deps/gloo/include/"
  cp /usr/include/zlib.h /usr/include/zconf.h "$deps/zlib/include/"
  mkdir -p "$deps/sqlite/include"
  cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h "$deps/sqlite/include/"
  grep -qxF '/.cuda-deps/' .git/info/exclude 2>/dev/null || echo '/.cuda-deps/' >>.git/info/exclude
  du -sh "$deps"
}

torch_dir() { python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))'; }

build() {
  local tdir
  tdir=$(torch_dir) || { echo "no PyTorch on this machine" >&2; return 1; }
  {
    nvidia-smi -L
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda,
"cxx11abi", torch.compiled_with_cxx11_abi())'
    g++ --version | head -1
    cmake --version | head -1
    echo "gloo headers in the wheel: $(test -f "$tdir/include/gloo/config.h" && echo yes || echo no)"
    echo "gloo symbols in libtorch_cpu: $(nm -DC "$tdir/lib/libtorch_cpu.so" | grep -c ' [TW] gloo::')"
    echo "zlib.h: $(ls /usr/include/zlib.h 2>/dev/null || echo none)"
    echo "sqlite3.h: $(ls /usr/include/sqlite3.h 2>/dev/null || echo none)"
  } 2>&1 | tee "$out/probe.txt"
  local gloo_inc=$tdir/include zlib=()
  test -f "$gloo_inc/gloo/config.h" || gloo_inc=$deps/gloo/include
  if [[ ! -f /usr/include/zlib.h ]]; then
    zlib=(-DZLIB_INCLUDE_DIR="$deps/zlib/include"
          -DZLIB_LIBRARY="$(ldconfig -p | awk '/libz\.so\.1 .*x86-64/ {print $NF; exit}')")
  fi
  # SQLite (core/query): the machine's libsqlite3.so.0 (Python's), Debian's header.
  if [[ ! -f /usr/include/sqlite3.h ]]; then
    zlib+=(-DSQLite3_INCLUDE_DIR="$deps/sqlite/include"
           -DSQLite3_LIBRARY="$(ldconfig -p | awk '/libsqlite3\.so\.0 .*x86-64/ {print $NF; exit}')")
  fi
  # ProcessGroupGloo and gloo itself are inside libtorch_cpu in the wheel.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTRAINSCOPE_BUILD_GUI=OFF -DTRAINSCOPE_BUILD_BENCH=OFF -DTRAINSCOPE_UNITY_TORCH=OFF -DTRAINSCOPE_UNITY=OFF \
    -DCMAKE_PREFIX_PATH="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')" \
    -DTRAINSCOPE_DEPS_DIR="$deps" -DGTest_DIR="$deps/lib/x86_64-linux-gnu/cmake/GTest" \
    -DTRAINSCOPE_GLOO_INCLUDE="$gloo_inc" -DTRAINSCOPE_GLOO_LIBRARY="$tdir/lib/libtorch_cpu.so" \
    "${zlib[@]}" >"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; return 1; }
  grep -i "cuda\|torch" "$out/configure.log" | head -20
  # The CLI first: a test that fails to build must not hide whether it trains.
  local t0=$SECONDS
  ninja -C "$build" -k 0 trainscope-cli trainscope-cli-torch >"$out/build-cli.log" 2>&1 ||
    { grep -B2 -A12 "error" "$out/build-cli.log" | head -80; return 1; }
  echo "CLI built in $((SECONDS - t0)) s"
  # CUDA_CHECK_CLI_ONLY=1: the CLI alone, when little device time is left.
  [[ -n ${CUDA_CHECK_CLI_ONLY:-} ]] && return 0
  ninja -C "$build" -k 0 >"$out/build-tests.log" 2>&1 ||
    { grep -B2 -A12 "error" "$out/build-tests.log" | head -60; }
  echo "build done in $((SECONDS - t0)) s"
}

# One command, its exit status and last lines in the log.
step() {
  local name=$1
  shift
  local t0=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "== $name: exit $rc in $((SECONDS - t0)) s"
  tail -${TAIL:-6} "$out/$name.log"
}

runs() {
  local r=$build/cuda-runs
  rm -rf "$r"
  mkdir -p "$r"
  local syn=(--no-progress --set dataset=synthetic --set val_every=0)
  step env "$cli" env
  # Seed study 1's CUDA experiments on synthetic CIFAR-shaped data, profiled.
  TAIL=12 step amp-fp16 "$cli" run --preset cifar10-gpu-amp --out "$r/amp" "${syn[@]}" \
    --set synthetic_samples=10240 --set max_steps=40 --set workers=2
  step fp32 "$cli" run --preset cifar10-gpu-fp32 --out "$r/fp32" "${syn[@]}" \
    --set synthetic_samples=8192 --set max_steps=30 --set workers=2
  step bf16-resnet50 "$cli" run --preset synthetic-smoke --out "$r/bf16" "${syn[@]}" \
    --set device=cuda --set model=resnet50 --set precision=bf16 --set batch_size=128 \
    --set synthetic_samples=3840 --set max_steps=30
  # Two processes on one GPU through gloo (CUDA tensors).
  TAIL=10 step ddp-2 "$cli" run --preset synthetic-smoke --out "$r/ddp" "${syn[@]}" \
    --set device=cuda --nproc-per-node 2 --set max_steps=20
  # Bad input on a CUDA build: plain words, exit 2.
  step bad-device "$cli" run --preset synthetic-smoke --out "$r/bad" --set device=cuda:7
  head -c 4096 /dev/urandom >"$r/junk.pt"
  step bad-checkpoint "$cli" run --preset synthetic-smoke --out "$r/bad2" --set device=cuda \
    --set resume="$r/junk.pt"
  # The recorded runs read back: the GPU trace views and the operator table.
  for v in overview operators kernels memory; do
    step "amp-trace-$v" "$cli" trace-stats "$r/amp/trace.json" --view "$v" --limit 12
  done
  step amp-trace-ops "$cli" trace-stats "$r/amp/trace.json" --limit 12
  TAIL=20 step advise "$cli" advise "$r/amp"
  step roofline "$cli" roofline --run "$r/amp" --device cuda --limit 10
  # A trace of this machine's own torch.profiler (PyTorch 2.x, CUDA), read back.
  step torch-profiler python3 "$root/scripts/cuda-profile-sample.py" "$r/torch_trace.json"
  for v in overview kernels kernels-by-op memory modules; do
    step "torch-trace-$v" "$cli" trace-stats "$r/torch_trace.json" --view "$v" --limit 10
  done
  cp "$r/amp/run.json" "$out/amp-run.json" 2>/dev/null
  cp "$r/ddp/run.json" "$out/ddp-run.json" 2>/dev/null
  gzip -c "$r/torch_trace.json" >"$out/torch_trace.json.gz" 2>/dev/null
  ls -la "$r/amp" >"$out/amp-ls.txt" 2>&1
}

tests() {
  (cd "$build" && ctest -j "$(nproc)" --timeout 200 --output-on-failure) >"$out/ctest.log" 2>&1
  echo "ctest exit $?"
  grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|\*\*\*" "$out/ctest.log" | head -40
}

all() {
  local t0=$SECONDS
  build || { pack_logs; return 1; }
  tests
  runs >"$out/runs-summary.txt" 2>&1
  tail -4 "$out/runs-summary.txt"
  echo "cuda-check: $((SECONDS - t0)) s"
  pack_logs
}

# Everything in $out into one archive beside the run records worth reading.
pack_logs() {
  local archive
  archive=$(mktemp /tmp/cuda-check-logs.XXXXXX)
  (cd "$out" && tar czf "$archive" --exclude='*.tgz' . && mv "$archive" cuda-check-logs.tgz &&
    find . -maxdepth 1 -type f ! -name '*.tgz' ! -name '*-run.json' -delete)
}

case ${1:-} in
  --pack) pack ;;
  all) all ;;
  build) build ;;
  runs) runs ;;
  tests) tests ;;
  *) sed -n 2,17p "$0" >&2; exit 2 ;;
esac
