#!/usr/bin/env bash
# Runs one fuzz target: scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]
# TARGET is ir-text, onnx-import, tensor-readers or differential. Builds
# the target in the sanitizer build first (scripts/sanitize.sh --build: with
# clang-19 it is the libFuzzer build, ASan + UBSan + assertions, in
# build-sanitize/ or $ONYX_SANITIZE_BUILD_DIR); new inputs accumulate in
# BUILD/corpus/TARGET, the seeds in test/fuzz/corpus/TARGET stay as they
# are. A crash leaves its reproducer in BUILD/ (crash-*): fix it, then add
# it to the seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]}"
seconds="${2:-60}"
shift $(( $# < 2 ? $# : 2 ))
build="${ONYX_SANITIZE_BUILD_DIR:-build-sanitize}"
if [ ! -f "$build/build.ninja" ]; then
  scripts/sanitize.sh --build
fi
if ! grep -q '^ONYX_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "fuzz.sh: $build is not a libFuzzer build (needs clang-19 and libclang-rt-19-dev)" >&2
  exit 1
fi
ninja -C "$build" -j"${ONYX_SANITIZE_JOBS:-$(nproc)}" "fuzz-$target"
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
