#!/bin/bash
# Runs on the GPU machine, from the repository root, after
# bench/gpu_prepare.sh here (see bench/README.md): dynamic (compiled once)
# against specialized kernels on the shared transformer block and a
# GPT-2-small-sized decoder's prefill at several sequence lengths
# (bench/dynamic_shapes.py), then text generation against PyTorch
# (bench/decode_bench.py, which exports the benchmark-sized decoders).
#   bench/gpu_generation.sh [SIZES] [NEW_TOKENS]
set -u
sizes=${1:-1,16,128,512}
new=${2:-128}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.gpu/lib
export ONYX_RUN=$PWD/.gpu/bin/onyx-run
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
if ! $ONYX_RUN --list-devices | grep -q "usable\|discrete"; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
$ONYX_RUN --list-devices
# Clocks ramp from idle: some seconds of work first.
python3 - <<'PY'
import time, torch
a = torch.randn(4096, 4096, device="cuda")
end = time.time() + 4
while time.time() < end:
    a = torch.matmul(a, a).clamp_(-1, 1)
torch.cuda.synchronize()
PY
echo "=== dynamic vs specialized: transformer_block"
python3 bench/dynamic_shapes.py .gpu/models/transformer_block.onnx \
  --inputs='1x{n}x16xf32=0.5' --sizes="$sizes" --runs=100
echo "=== generation (exports the decoders to /tmp/dec)"
python3 bench/decode_bench.py --out=/tmp/dec --new="$new"
echo "=== dynamic vs specialized: gpt2 (prefill, empty cache)"
past=""
for i in $(seq 24); do past="$past;1x12x0x64xf32="; done
python3 bench/dynamic_shapes.py /tmp/dec/gpt2_bench.onnx \
  --inputs="1x{n}xi64=1;1x{n}xi64=1;1x{n}xi64=0$past" --sizes="$sizes" --runs=20
