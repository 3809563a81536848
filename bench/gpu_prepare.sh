#!/bin/bash
# Gathers what bench/gpu_run.sh needs on a GPU machine into .gpu/ (ignored by
# git, carried to the machine): onyx-run, the shared libraries of this
# machine it links that the GPU machine's image lacks, and the models.
#   bench/gpu_prepare.sh [BUILD_DIR]      (default: build)
# The Vulkan loader travels separately as .deb files in .gl/ (see
# bench/README.md).
set -euo pipefail
build=${1:-build}
rm -rf .gpu
mkdir -p .gpu/bin .gpu/lib .gpu/models
cp "$build/bin/onyx-run" .gpu/bin/
# libstdc++, libgcc and libz stay the machine's own (newer, compatible).
for lib in libonnx.so.1 libonnx_proto.so.1 libprotobuf.so.32 libfmt.so.9; do
  cp -L "$(ldd "$build/bin/onyx-run" | awk -v l=$lib '$1 == l { print $3 }')" .gpu/lib/
done
cp ../shared/models/*.onnx ../shared/models/*.npy ../shared/models/gen_models.py \
  .gpu/models/
du -sh .gpu .gl
