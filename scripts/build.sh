#!/usr/bin/env bash
# Configures (once) and builds onyx into build/ (or $ONYX_BUILD_DIR).
# Extra arguments are passed to cmake when configuring, e.g.
#   scripts/build.sh -DONYX_SANITIZE=ON
set -euo pipefail
cd "$(dirname "$0")/.."
build="${ONYX_BUILD_DIR:-build}"
if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -G Ninja -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
fi
ninja -C "$build"
