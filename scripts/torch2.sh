#!/usr/bin/env bash
# LibTorch 2.x from PyPI's torch wheel, next to Debian's 1.13 (#49): installs
# the pinned wheel once into a cache outside the clone, then configures,
# builds and tests the headless CLI and the LibTorch tests against its CUDA
# LibTorch (CUDA code compiled and linked against /usr/local/cuda; the tests
# that need a GPU skip without one).
#
#   scripts/torch2.sh install     the wheel into $TRAINSCOPE_TORCH_CACHE (once)
#   scripts/torch2.sh build       configure and build build/torch2 (the CLI, the LibTorch tests and
#                                 the GUI's LibTorch 2.x module)
#   scripts/torch2.sh module      configure and build the GUI's LibTorch 2.x module alone (scripts/run.sh)
#   scripts/torch2.sh installed   exit 0 when the pinned wheel is installed
#   scripts/torch2.sh test        `trainscope-cli env`, the LibTorch tests (trainscope_core_tests) and
#                                 ResNets saved by the wheel's torch trained (tests/torch2/torchscript_models.sh),
#                                 running jobs traced on demand (tests/torch2/ondemand.sh), the GUI's
#                                 tests that train (build/default's) on the 2.x module, the
#                                 script probe's own tests (tests/python) and users' scripts run
#                                 under it (tests/torch2/run_script.sh)
#   scripts/torch2.sh all         the three
#   scripts/torch2.sh bench-deps  what bench/pytorch_reference.py imports beside torch
#                                 (torchvision, numpy, pillow: pinned, into the same venv)
#
# Why 2.15.0: the newest torch on PyPI when it was pinned (2026-12-01); its
# headers need C++20, which the build picks for LibTorch 2.14 and later. The
# cache is world-readable (/var/cache by default) because a test runs the CLI
# as `nobody`, who must load the wheel's libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${TORCH_VERSION:-2.15.0}
cache=${TRAINSCOPE_TORCH_CACHE:-/var/cache/trainscope}/torch-$version
python=$cache/bin/python
build=build/torch2

installed() { "$python" -c 'import torch; print(torch.__version__.split("+")[0])' 2>/dev/null; }

install() {
  mkdir -p "$(dirname "$cache")"
  # One install at a time: scripts/test.sh starts one in the background, and a
  # second must wait for it, not remove what it is writing.
  exec 9>"$cache.lock"
  flock 9
  if [[ "$(installed)" == "$version" ]]; then
    echo "torch2: torch $version is installed in $cache"
    # Again, in case an earlier install stopped between pip and its chmod.
    chmod -R a+rX "$(dirname "$cache")"
    return 0
  fi
  rm -rf "$cache"
  python3 -m venv "$cache" || { echo "torch2: cannot make a venv in $cache (python3-venv?)" >&2; exit 2; }
  echo "torch2: installing torch $version from PyPI into $cache (about 3 GB with its nvidia-* wheels)"
  if ! "$cache/bin/pip" install -q --no-cache-dir "torch==$version"; then
    rm -rf "$cache"
    echo "torch2: torch $version could not be installed from PyPI (see pip's message above);" \
         "set TORCH_VERSION to a version 'pip index versions torch' lists" >&2
    exit 2
  fi
  local got
  got=$(installed) || true
  if [[ "$got" != "$version" ]]; then
    echo "torch2: $cache holds torch '${got:-none}', not $version: the wheel does not import" >&2
    exit 2
  fi
  chmod -R a+rX "$(dirname "$cache")"
}

# torchvision 0.29.2 is the newest on PyPI (made for torch 2.14); the benches
# use only its model definitions, so it goes in without its torch pin.
bench_deps() {
  [[ "$(installed)" == "$version" ]] || { echo "torch2: run 'scripts/torch2.sh install' first" >&2; exit 2; }
  if ! "$cache/bin/pip" install -q --no-cache-dir --no-deps torchvision==0.29.2 numpy==2.4.6 pillow==13.0.0; then
    echo "torch2: the benches' torchvision, numpy and pillow could not be installed (see pip's message above)" >&2
    exit 2
  fi
  "$python" -c 'import torchvision; print("torch2: torchvision", torchvision.__version__)'
}

configure() {
  [[ "$(installed)" == "$version" ]] || { echo "torch2: run 'scripts/torch2.sh install' first" >&2; exit 2; }
  local torch nvidia
  torch=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))' 2>/dev/null)
  # The wheel's CUDA libraries (NCCL, cuDNN, ...) for the linker: the system's
  # NCCL lacks symbols libtorch_cuda needs.
  nvidia=$(ls -d "$torch"/../nvidia/*/lib 2>/dev/null | paste -sd: -)
  # CMAKE_LIBRARY_PATH: TorchConfig's find_library would take Debian's
  # /usr/lib/x86_64-linux-gnu/libtorch.so before the wheel's.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTRAINSCOPE_BUILD_GUI=OFF -DTRAINSCOPE_BUILD_BENCH=ON \
    -DCMAKE_PREFIX_PATH="$torch/share/cmake" -DCMAKE_LIBRARY_PATH="$torch/lib" \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DTORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}" \
    -DTRAINSCOPE_GLOO_INCLUDE=/usr/include -DTRAINSCOPE_GLOO_LIBRARY="$torch/lib/libtorch_cpu.so" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$nvidia" -DCMAKE_MODULE_LINKER_FLAGS="-Wl,-rpath-link,$nvidia" \
    >"$build.configure.log" 2>&1 || { tail -30 "$build.configure.log"; exit 1; }
  grep "LibTorch" "$build.configure.log"
}

build() {
  configure
  # The GUI's LibTorch 2.x module too (cmake/TorchBackendModule.cmake): the GUI of
  # the default build loads it (scripts/run.sh, the widget tests below).
  cmake --build "$build" -j "$(nproc)" --target trainscope-cli trainscope_core_tests \
    trainscope_torch_backend
}

module() {
  configure
  cmake --build "$build" -j "$(nproc)" --target trainscope_torch_backend
}

# The GUI's tests that train, from the default build (its GUI links no
# LibTorch), on this build's module: the worker thread, the Live charts, Stop,
# a resumed run, a Kineto profile in the Timeline and the Overview.
gui_tests() {
  local widgets=build/default/tests/widgets/trainscope_widget_tests module
  module="$PWD/$build/app/libtrainscope_torch_backend-${version%.*}.so"
  [[ -x $widgets ]] || { echo "torch2: $widgets is missing: scripts/build.sh default first" >&2; exit 2; }
  for name in test_libtorch test_gui_run; do
    QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=2 TRAINSCOPE_TORCH_BACKEND="$module" \
      "$widgets" "$name" -silent
  done
}

tests() {
  [[ -x $build/tests/trainscope_core_tests ]] || { echo "torch2: run 'scripts/torch2.sh build' first" >&2; exit 2; }
  "$build/app/trainscope-cli" env | head -3
  "$build/tests/trainscope_core_tests" --gtest_brief=1
  # ResNets scripted and saved by the wheel's torch train in the CLI (the
  # transformer block is checked in trainscope_core_tests from its fixture).
  STEPS=2 BATCH=16 tests/torch2/torchscript_models.sh "$build/app/trainscope-cli" "$python"
  # Trainscope as Kineto's on-demand daemon, against the wheel's processes.
  tests/torch2/ondemand.sh "$build/app/trainscope-cli" "$python"
  # The probe inside users' scripts (pure Python, on the wheel's torch), then
  # their scripts run under it by the CLI.
  "$python" -m unittest discover -s tests/python
  tests/torch2/run_script.sh "$build/app/trainscope-cli" "$python"
  gui_tests
}

case "${1:-all}" in
install) install ;;
installed) [[ "$(installed)" == "$version" ]] ;;
build) build ;;
module) module ;;
test) tests ;;
all) install && build && tests ;;
bench-deps) bench_deps ;;
*) echo "usage: scripts/torch2.sh install|installed|build|module|test|all|bench-deps" >&2; exit 2 ;;
esac
