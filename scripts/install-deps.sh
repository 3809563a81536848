#!/usr/bin/env bash
# Installs the Debian 12 packages onyx needs to build, run and test.
# Idempotent: installs only what is missing (apt-get update only then).
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 clang-19 libclang-rt-19-dev
  llvm-19-dev libzstd-dev llvm-19-tools mlir-19-tools
  libfmt-dev libabsl-dev libgtest-dev libbenchmark-dev
  libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata
  libshaderc-dev libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
  python3-dev pybind11-dev python3-numpy python3-pytest
  python3-pip python3-setuptools python3-wheel python3-venv
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
