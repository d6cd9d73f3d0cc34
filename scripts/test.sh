#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: install, build, run every ctest test
# (unit tests and the integration tests that boot real qemu guests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
# No test may pass without testing: a -R/-L that selects nothing is an error (and
# tests.no_silent_passes checks that no test can report "skipped").
ctest --test-dir build --output-on-failure --timeout 1800 --no-tests=error "$@"
# The unit tests once more under ASan+UBSan (a separate build in ./build-asan).
bash scripts/sanitize.sh
