#!/usr/bin/env bash
# Bandwidth of onyx's matrix-vector kernel (a decode step's MatMul: one
# token times a weight matrix) on the default Vulkan device, for weight
# shapes of GPT-2-small and a 135M Llama and a large square one.
#
#   bench/gemv_bandwidth.sh [RUNS]        (default 50 runs per shape)
#   ONYX_RUN=path/to/onyx-run bench/gemv_bandwidth.sh   (another binary)
#
# For each K x N weight it writes a [1, K] x [K, N] f32 MatMul module
# (bench/gen_matmul.py), and the same product with the weight stored
# [N, K] (each column contiguous, as onnx-transpose-gemv-weights stores a
# model's constant weights: a Gemm with transB), runs each with `onyx-run --benchmark=RUNS --profile`
# and turns the GPU time (the dispatches' timestamps, so the host copies of
# the inputs are not counted) into GB/s of the bytes a product must read and
# write: the weight, the vector and the result. The median over the runs is
# printed in ms with three decimals, too coarse for the small shapes, so the
# rate comes from the profile's microseconds of the last run. Prints a
# Markdown table; a device without timestamps is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
onyx_run=${ONYX_RUN:-build/bin/onyx-run}
[[ -x $onyx_run ]] || { echo "error: $onyx_run is missing (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| weight K x N | stored | MiB read | dispatches | GPU median (ms) | last run (us) | GB/s |"
echo "|---|---|---:|---:|---:|---:|---:|"
for shape in 768x2304 768x768 768x3072 3072x768 576x1536 1536x576 576x49152 \
             768x50257 4096x4096 4096x11008 11008x4096; do
  k=${shape%x*}
  n=${shape#*x}
  for stored in kxn nxk; do
  module=$tmp/gemv_${k}x${n}_$stored.mlir
  if [[ $stored == kxn ]]; then
    python3 bench/gen_matmul.py --m 1 --k "$k" --n "$n" -o "$module"
    weight=${k}x${n}
  else
    python3 bench/gen_matmul.py --m 1 --k "$k" --n "$n" --trans-b -o "$module"
    weight=${n}x${k}
  fi
  out=$("$onyx_run" "$module" --input=1x${k}xf32=0.5 --input=${weight}xf32=0.25 \
        --benchmark="$runs" --profile)
  gpu=$(sed -n 's/^gpu time: median \([0-9.]*\) ms.*/\1/p' <<<"$out")
  dispatches=$(sed -n 's/^profile: \([0-9]*\) dispatches.*/\1/p' <<<"$out")
  us=$(sed -n 's/^profile: [0-9]* dispatches, \([0-9.]*\) us in all.*/\1/p' <<<"$out")
  [[ -n $gpu && -n $us ]] || { echo "error: no GPU time for $shape:" >&2; echo "$out" >&2; exit 1; }
  python3 - "$k" "$n" "$gpu" "$us" "$dispatches" "$stored" <<'PY'
import sys
k, n, ms, us, dispatches = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
stored = "[k, n]" if sys.argv[6] == "kxn" else "[n, k]"
total = 4 * (k * n + k + n)
print(f"| {k} x {n} | {stored} | {total / 2**20:.1f} | {dispatches} | {ms:.3f} | {us:.1f} | {total / (us * 1e-6) / 1e9:.0f} |")
PY
  done
done
