#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to onyx doing its main job:
# installs what is missing, builds, prints a bundled example after
# canonicalization, and runs it on the reference backend.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== onyx-opt examples/add_relu.mlir --canonicalize --cse"
build/bin/onyx-opt examples/add_relu.mlir --canonicalize --cse
echo "== onyx-run examples/add_relu.mlir --backend=ref --input=... --input=..."
build/bin/onyx-run examples/add_relu.mlir --backend=ref \
  --input=2x3xf32=1,-2,3,-4,5,-6 --input=2x3xf32=0.5,0.5,0.5,0.5,0.5,0.5
