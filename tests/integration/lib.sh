# Shared helpers for integration tests: each test gets a private database and fails loudly.
set -euo pipefail
BOOTBENCH=${BOOTBENCH:?path to the bootbench binary}
work=$(mktemp -d)
export BOOTBENCH_DB=$work/test.sqlite
# scripts/test.sh sets BOOTBENCH_BUILD_TIMES: every kernel build that ran make (a cache hit
# takes well under 5 s) is appended there, so the suite can print its cold builds at the end.
record_build_times() {
  [ -n "${BOOTBENCH_BUILD_TIMES:-}" ] && [ -f "$BOOTBENCH_DB" ] || return 0
  sqlite3 -batch -noheader -separator ' ' "$BOOTBENCH_DB" \
    "select printf('%6.0f s', build_seconds), arch, substr(key, 1, 12), fragments_json, patches_json
     from builds where build_seconds > 5" >>"$BOOTBENCH_BUILD_TIMES" 2>/dev/null || true
}
trap 'record_build_times; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$BOOTBENCH_DB" "$@"; }
expect_eq() { # actual expected what
  [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}
no_qemu_left() { # pid-less check: no qemu whose argv mentions this test's files
  if pgrep -f "qemu-system.*$work" >/dev/null; then fail "a qemu is still running"; fi
}
