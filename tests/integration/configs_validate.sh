#!/usr/bin/env bash
# Every experiment file shipped in configs/ parses and validates, so none can rot unnoticed.
. "$(dirname "$0")/lib.sh"
count=0
for config in "$(dirname "$0")"/../../configs/*.yaml; do
  "$BOOTBENCH" run "$config" --validate >/dev/null || fail "$config does not validate"
  count=$((count + 1))
done
[ "$count" -ge 3 ] || fail "expected at least 3 configs, found $count"
echo "PASS ($count configs)"
