#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to onyx doing its main job:
# installs what is missing, builds, and runs the bundled ONNX model with
# onyx-run on the default Vulkan device (Mesa's lavapipe on a machine
# without a GPU), checking its outputs against NumPy's; then prints a small
# onnx-dialect example after canonicalization with onyx-opt, and runs the
# model again from Python through the onyx module. Binaries come from build/
# (or $ONYX_BUILD_DIR, as for scripts/build.sh); `import onyx` works with
# PYTHONPATH=$ONYX_BUILD_DIR/python.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
bin="${ONYX_BUILD_DIR:-build}/bin"
pythonpath="$(pwd)/${ONYX_BUILD_DIR:-build}/python"
echo "== onyx-run --list-devices"
"$bin"/onyx-run --list-devices
echo "== onyx-run examples/tiny_mlp.onnx --input=@examples/tiny_mlp.input_0.npy"
"$bin"/onyx-run examples/tiny_mlp.onnx --input=@examples/tiny_mlp.input_0.npy \
  --expected-output=@examples/tiny_mlp.output_0.npy --rtol=1e-3 --atol=1e-5
echo "== onyx-opt examples/add_relu.mlir --canonicalize --cse"
"$bin"/onyx-opt examples/add_relu.mlir --canonicalize --cse
echo "== PYTHONPATH=$pythonpath /usr/bin/python3: onyx.InferenceSession"
PYTHONPATH="$pythonpath" /usr/bin/python3 - <<'EOF'
import numpy as np
import onyx

session = onyx.InferenceSession("examples/tiny_mlp.onnx")
(probs,) = session.run(None, {"x": np.load("examples/tiny_mlp.input_0.npy")})
expected = np.load("examples/tiny_mlp.output_0.npy")
print(f"{session.device}: probs {probs.shape}, max abs error {abs(probs - expected).max():.2g}")
EOF
