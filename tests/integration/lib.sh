# Shared helpers for integration tests: each test gets a private database and fails loudly.
set -euo pipefail
BOOTBENCH=${BOOTBENCH:?path to the bootbench binary}
work=$(mktemp -d)
export BOOTBENCH_DB=$work/test.sqlite
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$BOOTBENCH_DB" "$@"; }
expect_eq() { # actual expected what
  [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}
no_qemu_left() { # pid-less check: no qemu whose argv mentions this test's files
  if pgrep -f "qemu-system.*$work" >/dev/null; then fail "a qemu is still running"; fi
}
