#!/usr/bin/env bash
# The sanitizer build and the tests it runs: ASan + UBSan (-DONYX_SANITIZE=ON)
# with assertions on (-O1, no NDEBUG) and LeakSanitizer on, in build-sanitize/
# (or $ONYX_SANITIZE_BUILD_DIR). Builds only what those tests run (the tools,
# the unit tests and the fuzz targets' seed replayers; no Python module, no
# benchmarks) and runs the unit tests, the lit tests, the fuzz seeds and the
# reference backend's conformance sets under ctest. The Vulkan conformance
# sets, the Hugging Face models and the Python tests stay in the ordinary
# build (scripts/test.sh). Leaks of the Vulkan driver itself are suppressed
# by test/sanitize/lsan.supp and nothing else: a leak of ours fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build="${ONYX_SANITIZE_BUILD_DIR:-build-sanitize}"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout, so that another clone of the same
  # sources (CI's) hits what this one compiled.
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DONYX_SANITIZE=ON \
    -DONYX_EXPENSIVE_CHECKS=OFF -DONYX_BUILD_PYTHON=OFF \
    -DONYX_BUILD_BENCHMARKS=OFF "${launcher[@]}"
fi
start=$(date +%s)
ninja -C "$build" onyx-opt onyx-run onyx-conformance onyx-unittests \
  fuzz-ir-text fuzz-onnx-import fuzz-tensor-readers fuzz-differential
echo "sanitize: built in $(( $(date +%s) - start )) s"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/test/sanitize/lsan.supp:print_suppressions=0"
start=$(date +%s)
cd "$build"
ctest --output-on-failure -j"$(nproc)" \
  -E '^(conformance-vulkan-.*|hf-.*|python|contrib-ops-ort)$'
echo "sanitize: tests ran in $(( $(date +%s) - start )) s"
