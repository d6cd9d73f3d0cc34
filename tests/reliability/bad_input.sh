#!/usr/bin/env bash
# Malformed experiment files and command lines each give their exact expected message and
# exit status, and never a crash. Each case in bad-input/ has a `.expected` file: the line
# `exit N`, then bootbench's stderr byte for byte.
#   bad-input/NNN-name.yaml       bootbench run NNN-name.yaml --validate (from bad-input/)
#   bad-input/cli/NNN-name.args   one argument per line; @GOOD@ is a valid experiment file,
#                                 @WORK@ a scratch directory, @CASES@ the bad-input directory
# BLESS=1 rewrites the .expected files from the current binary (review the diff!).
. "$(dirname "$0")/../integration/lib.sh"
cases=$(cd "$(dirname "$0")/bad-input" && pwd)
printf 'name: good\nkernel:\n  arch: arm64\naxes:\n  hz: [250]\n' >"$work/good.yaml"

failures=0
checked=0
check_case() { # expected-file actual-status actual-stderr-file
  local actual
  actual=$(printf 'exit %s\n' "$2"; cat "$3")
  checked=$((checked + 1))
  if [ "${BLESS:-0}" = 1 ]; then
    printf '%s\n' "$actual" >"$1"
  elif [ "$actual" != "$(cat "$1" 2>/dev/null)" ]; then
    echo "--- $1"
    diff <(cat "$1" 2>/dev/null) <(printf '%s\n' "$actual") || true
    failures=$((failures + 1))
  fi
  # Bad input is a usage error (2); anything else is a crash or a wrong status.
  [ "$2" = 2 ] || { echo "--- $1: exit status $2, expected 2"; failures=$((failures + 1)); }
}

for file in "$cases"/*.yaml; do
  name=$(basename "$file")
  set +e
  (cd "$cases" && timeout 60 "$BOOTBENCH" run "$name" --validate) >/dev/null 2>"$work/err"
  status=$?
  set -e
  sed -i "s|$cases|@CASES@|g" "$work/err"
  check_case "${file%.yaml}.expected" "$status" "$work/err"
done

for file in "$cases"/cli/*.args; do
  argv=()
  while IFS= read -r arg; do
    arg=${arg//@GOOD@/$work/good.yaml}
    arg=${arg//@WORK@/$work}
    argv+=("${arg//@CASES@/$cases}")
  done <"$file"
  set +e
  timeout 60 "$BOOTBENCH" "${argv[@]}" >/dev/null 2>"$work/err"
  status=$?
  set -e
  sed -i "s|$work|@WORK@|g; s|$cases|@CASES@|g" "$work/err"
  check_case "${file%.args}.expected" "$status" "$work/err"
done

[ "$checked" -ge 50 ] || fail "only $checked cases (expected at least 50)"
[ "$failures" = 0 ] || fail "$failures of $checked cases differ"
echo "PASS ($checked cases)"
