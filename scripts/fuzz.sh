#!/usr/bin/env bash
# Every libFuzzer target (fuzz/) for a bounded time, in a clang build of its own (./build-fuzz),
# then a table of the figures docs/reliability.md quotes. Any crash, leak, timeout or OOM fails
# this script (fuzz/run_fuzzer.sh), and so CI (scripts/test.sh).
#   bash scripts/fuzz.sh            # 60 s per target
#   FUZZ_SECONDS=600 bash scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DBOOTBENCH_FUZZ=ON \
  -DBOOTBENCH_FUZZ_SECONDS="$seconds" "${launcher[@]}" >/dev/null
ninja -C build-fuzz -j"$(nproc)"
FUZZ_FIGURES=$(mktemp)
export FUZZ_FIGURES
trap 'rm -f "$FUZZ_FIGURES"' EXIT
status=0
ctest --test-dir build-fuzz -L fuzz --output-on-failure || status=$?
echo
echo "fuzz figures ($(date -u +%Y-%m-%d), $(nproc) CPUs):"
{
  echo "target seconds runs exec/s cov ft corpus crashes"
  cat "$FUZZ_FIGURES"
} | awk '{ printf "%-24s %8s %10s %8s %6s %6s %7s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
# A target that crashed before printing figures is missing from the table; ctest says which.
exit "$status"
