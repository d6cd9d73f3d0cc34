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
corpus=$(find "$work/corpus" -type f | wc -l)
echo "corpus: $corpus inputs"
# One line of figures for docs/reliability.md (scripts/fuzz.sh collects them in $FUZZ_FIGURES).
final_stat() { sed -n "s/^stat::$1: *//p" "$work/log" | tail -1; }
last=$(grep -E "^#[0-9]+" "$work/log" | tail -1 || true)
crashes=$(find "$work" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' \
  -o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'oom-*' | wc -l)
figures=$(printf '%s %s %s %s %s %s %s %s' "$(basename "$fuzzer")" "$seconds" \
  "$(final_stat number_of_executed_units)" "$(final_stat average_exec_per_sec)" \
  "$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")" \
  "$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")" "$corpus" "$crashes")
echo "figures (target seconds runs exec/s cov ft corpus crashes): $figures"
[ -n "${FUZZ_FIGURES:-}" ] && echo "$figures" >>"$FUZZ_FIGURES"
if [ "$status" != 0 ] || ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
  tail -60 "$work/log"
  for artifact in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [ -e "$artifact" ] && { echo "artifact $(basename "$artifact"):"; od -c "$artifact" | head -20; }
  done
  echo "FAIL: $(basename "$fuzzer") found a problem (status $status)"
  exit 1
fi
echo PASS
