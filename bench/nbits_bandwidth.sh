#!/usr/bin/env bash
# Bandwidth of onyx's 4-bit MatMulNBits kernels (com.microsoft, weights kept
# packed in GPU memory) on decode-sized products, against the device's copy
# bandwidth and against the f32 MatMul of the same shape.
#
#   bench/nbits_bandwidth.sh [RUNS] [BLOCK_SIZE]     (default 50 runs, 32)
#   ONYX_RUN=path/to/onyx-run bench/nbits_bandwidth.sh   (another binary)
#
# For each K x N weight it writes a [1, K] x MatMulNBits(K, N) module
# (bench/gen_nbits.py; B and the scales are splat constants, uploaded at
# full size) and the f32 MatMul of the same shape (bench/gen_matmul.py),
# runs each with `onyx-run --benchmark=RUNS --profile` and turns the GPU time
# of the last run (the dispatches' timestamps) into GB/s of the bytes the
# product must read: the packed weight (K * N / 2 at 4 bits), the scales (4
# bytes per block), the vector and the result. The copy bandwidth is that of
# a 256 MiB elementwise Neg (read + write). Prints a Markdown table; a device
# without timestamps is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
block=${2:-32}
onyx_run=${ONYX_RUN:-build/bin/onyx-run}
[[ -x $onyx_run ]] || { echo "error: $onyx_run is missing (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gpu_us() { sed -n 's/^profile: [0-9]* dispatches, \([0-9.]*\) us in all.*/\1/p'; }

# The copy bandwidth: 64 Mi floats read and written by one elementwise kernel.
cat >"$tmp/copy.mlir" <<'MLIR'
func.func @main(%x: tensor<67108864xf32>) -> tensor<67108864xf32> {
  %y = "onnx.Neg"(%x) : (tensor<67108864xf32>) -> tensor<67108864xf32>
  return %y : tensor<67108864xf32>
}
MLIR
copy_us=$("$onyx_run" "$tmp/copy.mlir" --input=67108864xf32=1 --benchmark=10 --profile | gpu_us)
[[ -n $copy_us ]] || { echo "error: no GPU time for the copy" >&2; exit 1; }
copy=$(python3 -c "print(2 * 4 * 67108864 / ($copy_us * 1e-6) / 1e9)")
printf 'copy bandwidth (256 MiB Neg, read + write): %.0f GB/s\n\n' "$copy"

echo "| weight K x N | block | 4-bit MiB read | 4-bit us | 4-bit GB/s | % of copy | f32 us | f32 GB/s | speedup |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for shape in 576x1536 1536x576 576x576 576x49152 2048x8192 8192x2048 4096x4096 \
             4096x11008 11008x4096; do
  k=${shape%x*}
  n=${shape#*x}
  python3 bench/gen_nbits.py --m 1 --k "$k" --n "$n" --block-size "$block" \
    -o "$tmp/nbits.mlir"
  nbits_us=$("$onyx_run" "$tmp/nbits.mlir" --input=1x${k}xf32=0.5 \
             --benchmark="$runs" --profile | gpu_us)
  python3 bench/gen_matmul.py --m 1 --k "$k" --n "$n" -o "$tmp/f32.mlir"
  f32_us=$("$onyx_run" "$tmp/f32.mlir" --input=1x${k}xf32=0.5 \
           --input=${k}x${n}xf32=0.25 --benchmark="$runs" --profile | gpu_us)
  [[ -n $nbits_us && -n $f32_us ]] || { echo "error: no GPU time for $shape" >&2; exit 1; }
  python3 - "$k" "$n" "$block" "$nbits_us" "$f32_us" "$copy" <<'PY'
import sys
k, n, block = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
nbits_us, f32_us, copy = float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
blocks = -(-k // block)
packed = n * blocks * block // 2 + 4 * n * blocks + 4 * (k + n)
f32 = 4 * (k * n + k + n)
rate = packed / (nbits_us * 1e-6) / 1e9
f32_rate = f32 / (f32_us * 1e-6) / 1e9
print(f"| {k} x {n} | {block} | {packed / 2**20:.2f} | {nbits_us:.1f} | {rate:.0f} | "
      f"{100 * rate / copy:.0f}% | {f32_us:.1f} | {f32_rate:.0f} | {f32_us / nbits_us:.2f}x |")
PY
done
