#!/usr/bin/env bash
# Installs the Debian packages Trainscope needs, only those missing, so that a
# second call returns at once. Used by scripts/run.sh and scripts/test.sh.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config zlib1g-dev
  libtorch-dev libopenblas0-pthread
  qt6-base-dev libqcustomplot-dev libgl-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libsimdjson-dev
  libsqlite3-dev # SQL over traces (core/query)
  libgloo-dev # c10d's Gloo process group headers (data-parallel training)
  dataset-fashion-mnist python3-torchvision
  python3-venv # the pinned torch wheel's venv (scripts/torch2.sh)
  xvfb xauth fonts-dejavu-core
  clang-format clang-tidy
  clang libclang-rt-14-dev # libFuzzer, ASan and UBSan for scripts/fuzz.sh
  ccache # compiles once per source across clones (cmake/TrainscopeCcache.cmake)
)

missing=()
for p in "${packages[@]}"; do
  [ -n "$p" ] || continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
