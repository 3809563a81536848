#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to every test passing:
# installs what is missing, builds (with the expensive rewrite checks on),
# and runs unit, lit and conformance tests through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export ONYX_BUILD_DIR="${ONYX_BUILD_DIR:-build}"
scripts/build.sh -DONYX_EXPENSIVE_CHECKS=ON
cd "$ONYX_BUILD_DIR"
ctest --output-on-failure -j"$(nproc)"
