#!/usr/bin/env bash
# Runs one fuzz target: scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]
# TARGET is ir-text, onnx-import, tensor-readers or differential. Builds
# the libFuzzer build (clang-19, ASan + UBSan) in build-fuzz/ first; new
# inputs accumulate in build-fuzz/corpus/TARGET, the seeds in
# test/fuzz/corpus/TARGET stay as they are. A crash leaves its reproducer
# in build-fuzz/ (crash-*): fix it, then add it to the seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]}"
seconds="${2:-60}"
shift $(( $# < 2 ? $# : 2 ))
build="${ONYX_FUZZ_BUILD_DIR:-build-fuzz}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DONYX_FUZZ=ON -DONYX_BUILD_BENCHMARKS=OFF -DHAVE_FFI_CALL=1
fi
ninja -C "$build" "fuzz-$target"
work="$build/corpus/$target"
mkdir -p "$work"
root="$(pwd)"
dict=()
[ -f "test/fuzz/$target.dict" ] && dict=(-dict="$root/test/fuzz/$target.dict")
# Reproducers (crash-*, leak-*, timeout-*) land in the build folder.
cd "$build"
exec "bin/fuzz-$target" "corpus/$target" "$root/test/fuzz/corpus/$target" \
  "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -print_final_stats=1 "$@"
