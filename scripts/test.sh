#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: install, build, run every ctest test
# (unit tests and the integration tests that boot real qemu guests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure --timeout 1800 "$@"
# The unit tests once more under ASan+UBSan (a separate build in ./build-asan).
bash scripts/sanitize.sh
# The libFuzzer targets for a bounded time (clang build in ./build-fuzz); a crash fails CI.
bash scripts/fuzz.sh
