#!/usr/bin/env bash
# The sanitizer build and the tests it runs: ASan + UBSan (-DONYX_SANITIZE=ON)
# with assertions on (-O1, no NDEBUG) and LeakSanitizer on, in build-sanitize/
# (or $ONYX_SANITIZE_BUILD_DIR).
#
# With clang-19 and its libFuzzer (scripts/install-deps.sh installs both) the
# same build is also the libFuzzer build (-DONYX_FUZZ=ON): scripts/fuzz.sh
# runs its targets, and ctest runs each of them for ONYX_FUZZ_SECONDS on its
# seed corpus. Without clang-19 it is a g++ build that replays the seeds.
#
# Builds what the tests run (the tools, the unit tests, the conformance
# runner, the fuzz targets; no Python module, no benchmarks) and runs under
# ctest the unit tests, the lit tests, the fuzz targets and the reference
# backend's conformance sets. The Vulkan conformance sets, the Hugging Face
# models and the Python tests stay in the ordinary build (scripts/test.sh):
# the sanitizers make lavapipe's shader compiler several times slower.
# Leaks of the Vulkan driver stack itself are suppressed by
# test/sanitize/lsan.supp and nothing else: a leak of ours fails the run.
#
#   scripts/sanitize.sh            build and test
#   scripts/sanitize.sh --build    build only
# $ONYX_SANITIZE_JOBS caps the build's parallel jobs (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build="${ONYX_SANITIZE_BUILD_DIR:-build-sanitize}"
jobs="${ONYX_SANITIZE_JOBS:-$(nproc)}"
# The per-case time limits of the tests (a conformance case's minute, a fuzz
# input's 10 s) are multiplied by this: the sanitized code runs several times
# slower, and slower still on a CPU that other builds share.
scale="${ONYX_SANITIZE_TIMEOUT_SCALE:-10}"
config=(-DCMAKE_BUILD_TYPE=Release -DONYX_SANITIZE=ON
  -DONYX_EXPENSIVE_CHECKS=OFF -DONYX_BUILD_PYTHON=OFF
  -DONYX_BUILD_BENCHMARKS=OFF -DONYX_TEST_TIMEOUT_SCALE="$scale")
if command -v clang++-19 >/dev/null &&
  [ -n "$(ls /usr/lib/llvm-19/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ]; then
  # HAVE_FFI_CALL: LLVM's FFI check would need a C compiler.
  config+=(-DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19
    -DHAVE_FFI_CALL=1 -DONYX_FUZZ=ON
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only")
else
  config+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1")
fi
if command -v ccache >/dev/null; then
  config+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout, so that another clone of the same
  # sources (CI's) hits what this one compiled.
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build" "${config[@]}"
elif ! grep -qx "ONYX_TEST_TIMEOUT_SCALE:STRING=$scale" "$build/CMakeCache.txt"; then
  cmake -B "$build" -DONYX_TEST_TIMEOUT_SCALE="$scale"
fi
start=$(date +%s)
ninja -C "$build" -j"$jobs"
echo "sanitize: built in $(( $(date +%s) - start )) s"
[ "${1:-}" = "--build" ] && exit 0

export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1"
# Stack traces with file and line (lit passes these variables through).
for s in llvm-symbolizer /usr/lib/llvm-19/bin/llvm-symbolizer; do
  if command -v "$s" >/dev/null; then
    export ASAN_SYMBOLIZER_PATH="$(command -v "$s")"
    break
  fi
done
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/test/sanitize/lsan.supp:print_suppressions=0"
start=$(date +%s)
cd "$build"
# ctest's limit per test (not per case) is an hour: the reference conformance
# sets run a few thousand cases each.
ctest --output-on-failure -j"$(nproc)" --timeout 3600 \
  -E '^(conformance-vulkan-.*|hf-.*|python|contrib-ops-ort)$'
echo "sanitize: tests ran in $(( $(date +%s) - start )) s"
