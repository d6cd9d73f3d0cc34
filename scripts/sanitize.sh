#!/usr/bin/env bash
# The unit tests (and configs.validate) again, built with AddressSanitizer and
# UndefinedBehaviorSanitizer into ./build-asan; any report fails the run. CI runs it after the
# main suite (scripts/test.sh); on its own: bash scripts/sanitize.sh [ctest args].
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi
# -O1 and line tables only: the unit tests include simulations (10,000 data sets a cell) that ran
# ~13x slower at -O0 under ASan; -O1 is what ASan's own documentation uses, and line tables are
# all its reports need.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DBOOTBENCH_WERROR=ON -DBOOTBENCH_SANITIZE=ON "${launcher[@]}" >/dev/null
ninja -C build-asan -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Unit tests are independent and CPU-bound: one per core.
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L unit "$@"
