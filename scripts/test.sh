#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: install, build, run every ctest test
# (unit tests and the integration tests that boot real qemu guests), then the unit tests again
# under sanitizers. Ends with the suite's wall time and every kernel build that ran make (on a
# fresh machine: the cold builds that dominate it), and the wall time of each stage.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh
ctest_logged() { # ctest arguments...: the suite's ctest call, its output also kept for the end
  ctest --test-dir build --output-on-failure --timeout 1800 --no-tests=error "$@" |
    tee -a "$ctest_log"
}
# The ten slowest ctest tests, from ctest's own "Test #N: NAME .... Passed  12.34 sec" lines,
# printed last: where a cold suite's time goes (issue 48 item 17).
ctest_log=$PWD/build/ctest-output.log
slowest_tests() {
  [ -s "$ctest_log" ] || return 0
  echo "== the ten slowest tests (wall seconds):"
  # awk keeps reading after the tenth line: `head` would leave sort writing into a closed pipe,
  # and under pipefail and set -e that SIGPIPE (141) became the whole suite's exit status.
  perl -ne 'print "$2 $1\n" if /Test +#\d+: (.+?) \.+ .*?([\d.]+) sec$/' "$ctest_log" |
    sort -rn | awk 'NR <= 10 { t = $1; $1 = ""; printf "   %8.1f %s\n", t, $0 }'
}
trap 'stages_summary "test suite"; slowest_tests' EXIT
stage setup bash scripts/setup.sh
stage build bash scripts/build.sh
# No test may pass without testing: a -R/-L that selects nothing is an error (and
# tests.no_silent_passes checks that no test can report "skipped").
if [ $# = 0 ]; then
  # Unit tests and the statistics' calibration are independent and CPU-bound: one per core.
  # Everything that boots or builds a kernel runs alone (two makes or guests on 2 cores only
  # slow each other down).
  mkdir -p build && : >"$ctest_log"
  stage unit ctest_logged -j"$(nproc)" -L 'unit|stats'
  stage ctest ctest_logged -LE 'unit|stats'
else
  stage ctest ctest_logged "$@"
fi
# The unit tests once more under ASan+UBSan (a separate build in ./build-asan).
stage sanitize bash scripts/sanitize.sh
# The libFuzzer targets for a bounded time (clang build in ./build-fuzz); a crash fails CI.
# 30 s per target here (scripts/fuzz.sh alone: 60 s): the suite must fit 60 min cold (issue 48
# item 17); each target starts from its seeds in fuzz/seeds.
FUZZ_SECONDS=${FUZZ_SECONDS:-30} stage fuzz bash scripts/fuzz.sh
