#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
start=$(date +%s)
scripts/build.sh default
echo "test.sh: build took $(( $(date +%s) - start )) s"
export QT_QPA_PLATFORM=offscreen
ctest --preset default --timeout 900 -j 2
echo "test.sh: build + tests took $(( $(date +%s) - start )) s"
