#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to every test passing:
# installs what is missing, builds (with the expensive rewrite checks on),
# and runs unit, lit and conformance tests through ctest; then the sanitizer
# build and its tests (scripts/sanitize.sh: ASan + UBSan + LeakSanitizer
# over the unit, lit, fuzz and reference conformance tests, each fuzz target
# under libFuzzer for ONYX_FUZZ_SECONDS on its seeds) and the check that
# the two builds (GCC's and clang's) compile the lit tests' IR alike.
# ONYX_TEST_SANITIZE=0 leaves the sanitizer part out (a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export ONYX_BUILD_DIR="${ONYX_BUILD_DIR:-build}"
scripts/build.sh -DONYX_EXPENSIVE_CHECKS=ON
(cd "$ONYX_BUILD_DIR" && ctest --output-on-failure -j"$(nproc)")
if [ "${ONYX_TEST_SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh
  scripts/compare-builds.py "$ONYX_BUILD_DIR" "${ONYX_SANITIZE_BUILD_DIR:-build-sanitize}"
fi
