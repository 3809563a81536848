#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to every test passing:
# installs what is missing, builds (with the expensive rewrite checks on),
# and runs unit, lit and conformance tests through ctest; then, with
# ONYX_TEST_SANITIZE=1, the sanitizer build and its tests (scripts/sanitize.sh:
# ASan + UBSan + LeakSanitizer over the unit, lit, fuzz and reference
# conformance tests, and each fuzz target for ONYX_FUZZ_SECONDS). It is not
# on by default until a whole sanitizer run has passed on a CI machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export ONYX_BUILD_DIR="${ONYX_BUILD_DIR:-build}"
scripts/build.sh -DONYX_EXPENSIVE_CHECKS=ON
(cd "$ONYX_BUILD_DIR" && ctest --output-on-failure -j"$(nproc)")
if [ "${ONYX_TEST_SANITIZE:-0}" != 0 ]; then
  scripts/sanitize.sh
fi
