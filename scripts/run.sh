#!/usr/bin/env bash
# Installs dependencies, builds, and launches the GUI on the embedded default
# experiment (preset "quickstart"). Without a display it runs the same
# experiment headless with trainscope-cli. Extra arguments go to the program.
#
# The GUI trains on the newest LibTorch module it finds: where the pinned
# torch wheel is installed (scripts/torch2.sh install, 3 GB), its LibTorch 2.x
# with CUDA and Kineto, built here as build/torch2's module; otherwise
# Debian's LibTorch 1.13 (CPU, no Kineto), with no download.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh default
if ! scripts/torch2.sh installed; then
  echo "run.sh: training on Debian's LibTorch 1.13 (CPU only, no Kineto); for LibTorch 2.15" \
       "with CUDA and Kineto: scripts/torch2.sh install, then scripts/run.sh again"
elif scripts/torch2.sh module; then
  export TRAINSCOPE_TORCH_BACKEND_PATH="$PWD/build/torch2/app${TRAINSCOPE_TORCH_BACKEND_PATH:+:$TRAINSCOPE_TORCH_BACKEND_PATH}"
else
  echo "run.sh: the LibTorch 2.15 module did not build (above): training on Debian's 1.13" >&2
fi
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/default/app/trainscope --preset quickstart "$@"
fi
echo "run.sh: no display; running the quickstart experiment headless"
exec build/default/app/trainscope-cli run --preset quickstart "$@"
