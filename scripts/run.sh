#!/usr/bin/env bash
# Installs dependencies, builds, and launches the GUI on the embedded default
# experiment (preset "quickstart"). Without a display it runs the same
# experiment headless with trainscope-cli. Extra arguments go to the program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh default
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/default/app/trainscope --preset quickstart "$@"
fi
echo "run.sh: no display; running the quickstart experiment headless"
exec build/default/app/trainscope-cli run --preset quickstart "$@"
