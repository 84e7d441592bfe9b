#!/usr/bin/env bash
# Configures and builds with a CMake preset (default: "default", GUI on).
# Usage: scripts/build.sh [preset]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
# Each LibTorch translation unit needs ~1.1 GB while compiling: bound the jobs
# by memory as well as by cores.
mem_gb=$(awk '/MemAvailable/ {print int($2/1048576)}' /proc/meminfo)
jobs=$(nproc)
[ "$jobs" -gt $((mem_gb / 2)) ] && jobs=$((mem_gb / 2))
[ "$jobs" -ge 1 ] || jobs=1
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
