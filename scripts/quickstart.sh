#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to onyx doing its main job:
# installs what is missing, builds, and runs onyx-opt on a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== onyx-opt examples/add_relu.mlir"
build/bin/onyx-opt --allow-unregistered-dialect examples/add_relu.mlir
