#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS over a scratch corpus seeded from SEEDS, prints its
# figures (executions, exec/s, coverage, corpus) and fails on any crash, leak or timeout.
#   run_fuzzer.sh FUZZER SECONDS SEEDS DICT
set -euo pipefail
fuzzer=$1 seconds=$2 seeds=$3 dict=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
set +e
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict="$dict" -artifact_prefix="$work/" -print_final_stats=1 \
  "$work/corpus" "$seeds" >"$work/log" 2>&1
status=$?
set -e
grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)" "$work/log" || true
grep -E "^#[0-9]+" "$work/log" | tail -1 || true
echo "corpus: $(find "$work/corpus" -type f | wc -l) inputs"
if [ "$status" != 0 ] || ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
  tail -60 "$work/log"
  for artifact in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [ -e "$artifact" ] && { echo "artifact $(basename "$artifact"):"; od -c "$artifact" | head -20; }
  done
  echo "FAIL: $(basename "$fuzzer") found a problem (status $status)"
  exit 1
fi
echo PASS
