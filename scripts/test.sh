#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: install, build, run every ctest test
# (unit tests and the integration tests that boot real qemu guests), then the unit tests again
# under sanitizers. Ends with the suite's wall time and every kernel build that ran make (on a
# fresh machine: the cold builds that dominate it), and the wall time of each stage.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh
trap 'stages_summary "test suite"' EXIT
stage setup bash scripts/setup.sh
stage build bash scripts/build.sh
# No test may pass without testing: a -R/-L that selects nothing is an error (and
# tests.no_silent_passes checks that no test can report "skipped").
if [ $# = 0 ]; then
  # Unit tests and the statistics' calibration are independent and CPU-bound: one per core.
  # Everything that boots or builds a kernel runs alone (two makes or guests on 2 cores only
  # slow each other down).
  stage unit ctest --test-dir build --output-on-failure --timeout 1800 --no-tests=error \
    -j"$(nproc)" -L 'unit|stats'
  stage ctest ctest --test-dir build --output-on-failure --timeout 1800 --no-tests=error \
    -LE 'unit|stats'
else
  stage ctest ctest --test-dir build --output-on-failure --timeout 1800 --no-tests=error "$@"
fi
# The unit tests once more under ASan+UBSan (a separate build in ./build-asan).
stage sanitize bash scripts/sanitize.sh
# The libFuzzer targets for a bounded time (clang build in ./build-fuzz); a crash fails CI.
stage fuzz bash scripts/fuzz.sh
