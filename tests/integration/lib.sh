# Shared helpers for integration tests: each test gets a private database and fails loudly.
set -euo pipefail
BOOTBENCH=${BOOTBENCH:?path to the bootbench binary}
work=$(mktemp -d)
export BOOTBENCH_DB=$work/test.sqlite
# The tests check what bootbench does, not how quiet the CI host is: no waiting for a quiet host
# before samples, and no sample left out as "loaded" (the --quiet-* options read these).
# reliability.quiet_gate unsets both to test the gate itself.
export BOOTBENCH_NO_QUIET_WAIT=1 BOOTBENCH_QUIET_MAX_LOAD=1
# scripts/test.sh collects every kernel build that ran make, to print the cold ones at the end.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/build-times.sh"
trap 'record_build_times "$BOOTBENCH_DB"; rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# `cmd | has_match [grep options] PATTERN`: true when a line of cmd's output matches. Never
# `cmd | grep -q`: grep -q exits at the first match, cmd's next write then dies of SIGPIPE and,
# under pipefail, the pipeline fails although the line was there (cli.history failed CI so).
# grep -c reads its whole input (its output is a pipe, not /dev/null, so it cannot stop early).
has_match() { [ "$(grep -c "$@")" -gt 0 ]; }
# CI's one arm64 kernel (issue 14, item 20): the smoke configs' fragment set at HZ 250. A test
# that boots an arm64 kernel of its own uses it (`fragments: $smoke_fragments` in a YAML, or
# `smoke_fragment_args` for `bootbench build`), so a fresh machine builds that kernel once.
smoke_fragments=$(sed -n 's/^ *fragments: *//p' "$(dirname "${BASH_SOURCE[0]}")/../../configs/smoke-matrix.yaml")
smoke_fragment_args() { # -> --fragment NAME ... for each fragment of $smoke_fragments
  local name
  for name in $(tr -d '[],' <<<"$smoke_fragments"); do printf -- '--fragment\n%s\n' "$name"; done
}
q() { sqlite3 -batch -noheader "$BOOTBENCH_DB" "$@"; }
expect_eq() { # actual expected what
  [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}
# Every process this test starts inherits this tag, and so does every qemu bootbench starts
# (it passes its environment on): a guest is found by it after bootbench died and the guest was
# reparented, whatever its argv names (the kernel and the initrd usually live in the cache).
export BOOTBENCH_TEST_TAG=$work
test_qemus() { # pids of this test's live qemu processes, one a line
  local dir comm
  for dir in /proc/[0-9]*; do
    read -r comm 2>/dev/null <"$dir/comm" || continue
    case $comm in qemu-system*) ;; *) continue ;; esac
    # A zombie (dead, not yet reaped) has no environment left: it never matches.
    if grep -qzxF "BOOTBENCH_TEST_TAG=$work" "$dir/environ" 2>/dev/null; then
      echo "${dir#/proc/}"
    fi
  done
}
wait_for_guest() { # seconds -> prints this test's running qemu pids; fails if none appears
  local pids _
  for _ in $(seq 1 $(($1 * 10))); do
    pids=$(test_qemus)
    if [ -n "$pids" ]; then echo "$pids"; return 0; fi
    sleep 0.1
  done
  fail "no guest of this test was running within $1 s"
}
no_qemu_left() { # [seconds=10] [what]: fails if a qemu of this test is still alive by then
  local left _
  for _ in $(seq 1 $((${1:-10} * 10))); do
    left=$(test_qemus)
    [ -z "$left" ] && return 0
    sleep 0.1
  done
  fail "${2:+$2: }a qemu of this test is still running after ${1:-10} s: pid $(echo $left)"
}
