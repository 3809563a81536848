#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to onyx doing its main job:
# installs what is missing, builds, and runs the bundled ONNX model with
# onyx-run on the default Vulkan device (Mesa's lavapipe on a machine
# without a GPU), checking its outputs against NumPy's; then shows the
# onnx-dialect IR of a small example before and after canonicalization.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== onyx-run --list-devices"
build/bin/onyx-run --list-devices
echo "== onyx-run examples/tiny_mlp.onnx --input=@examples/tiny_mlp.input_0.npy"
build/bin/onyx-run examples/tiny_mlp.onnx --input=@examples/tiny_mlp.input_0.npy \
  --expected-output=@examples/tiny_mlp.output_0.npy --rtol=1e-3 --atol=1e-5
echo "== onyx-opt examples/add_relu.mlir --canonicalize --cse"
build/bin/onyx-opt examples/add_relu.mlir --canonicalize --cse
