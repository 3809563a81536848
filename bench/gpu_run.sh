#!/bin/bash
# Runs on the GPU machine, from the repository root, after
# bench/gpu_prepare.sh here (see bench/README.md): every shared model with
# onyx-run --benchmark --profile (checked against PyTorch's outputs at rtol
# 1e-3, atol 1e-4), a 4096^3 fp32 MatMul through onyx (checked against
# float64 NumPy), then the same in PyTorch (bench/torch_models.py).
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.gpu/lib
run=.gpu/bin/onyx-run
models=.gpu/models
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
if ! $run --list-devices | grep -q "usable\|discrete"; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
$run --list-devices
for model in mlp cnn_small transformer_block; do
  for variant in "" .opset17; do
    echo "=== onyx $model$variant"
    $run "$models/$model$variant.onnx" --input=@"$models/$model.input_0.npy" \
      --expected-output=@"$models/$model.output_0.npy" --rtol=1e-3 --atol=1e-4 \
      --benchmark=200 --profile 2>&1 | grep -v "^output 0: tensor"
  done
done

python3 bench/gen_matmul.py -o /tmp/matmul.mlir
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(0)
for name in "ab":
    np.save(f"/tmp/{name}.npy", rng.standard_normal((4096, 4096), dtype=np.float32))
PY
echo "=== onyx matmul4096"
$run /tmp/matmul.mlir --input=@/tmp/a.npy --input=@/tmp/b.npy \
  --output=@/tmp/c.npy --benchmark=20 --profile 2>&1
python3 - <<'PY'
import numpy as np
a, b, c = (np.load(f"/tmp/{n}.npy").astype(np.float64) for n in "abc")
ref = a @ b
print(f"onyx matmul4096 relative error |c - ref| / |ref| = "
      f"{np.linalg.norm(c - ref) / np.linalg.norm(ref):.3e}")
PY
echo "=== torch"
python3 bench/torch_models.py "$models" --runs 200
