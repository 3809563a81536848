#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to onyx doing its main job:
# installs what is missing, builds, and runs the bundled ONNX model with
# onyx-run on the default Vulkan device (Mesa's lavapipe on a machine
# without a GPU), checking its outputs against NumPy's; then prints a small
# onnx-dialect example after canonicalization with onyx-opt. Binaries come
# from build/ (or $ONYX_BUILD_DIR, as for scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
bin="${ONYX_BUILD_DIR:-build}/bin"
echo "== onyx-run --list-devices"
"$bin"/onyx-run --list-devices
echo "== onyx-run examples/tiny_mlp.onnx --input=@examples/tiny_mlp.input_0.npy"
"$bin"/onyx-run examples/tiny_mlp.onnx --input=@examples/tiny_mlp.input_0.npy \
  --expected-output=@examples/tiny_mlp.output_0.npy --rtol=1e-3 --atol=1e-5
echo "== onyx-opt examples/add_relu.mlir --canonicalize --cse"
"$bin"/onyx-opt examples/add_relu.mlir --canonicalize --cse
