#!/usr/bin/env bash
# The guest checks of lib.sh can fail: a stand-in qemu (a copy of sleep named qemu-system-stub,
# its argv naming nothing of this test, like a real guest whose kernel and initrd live in the
# cache) started from this test's environment is found by test_qemus and wait_for_guest, makes
# no_qemu_left fail while it lives and pass once it is gone; another test's stand-in is ignored.
# And the smoke fragment set lib.sh hands to tests is the one every smoke config uses.
. "$(dirname "$0")/lib.sh"

stub_dir=$(mktemp -d)
cp /bin/sleep "$stub_dir/qemu-system-stub"
stop_stubs() { kill "$@" 2>/dev/null || true; wait "$@" 2>/dev/null || true; }
trap 'stop_stubs $(jobs -p); rm -rf "$work" "$stub_dir"' EXIT

BOOTBENCH_TEST_TAG=another-test "$stub_dir/qemu-system-stub" 600 &
foreign=$!
"$stub_dir/qemu-system-stub" 600 &
ours=$!

expect_eq "$(wait_for_guest 5)" "$ours" "wait_for_guest finds this test's guest, only that one"
if (no_qemu_left 1 "stub") 2>/dev/null; then
  fail "no_qemu_left passed while this test's qemu $ours was running"
fi
stop_stubs "$ours"
no_qemu_left 2 "after stopping the stub"
expect_eq "$(test_qemus)" "" "test_qemus after the stub stopped"
if (wait_for_guest 1) 2>/dev/null; then fail "wait_for_guest passed with no guest running"; fi
[ -e "/proc/$foreign" ] || fail "the other test's stand-in should still run"

# CI builds one arm64 kernel only while every smoke config names the same fragment set. A
# factor that is a kernel option goes into that set when it is inert until a boot parameter
# asks for it (rcu-nocb: RCU_NOCB_CPU does nothing without rcu_nocbs=), so that its smoke
# costs a boot, not a second cold kernel (issue 32, item 0).
[ -n "$smoke_fragments" ] || fail "no fragments: line in configs/smoke-matrix.yaml"
for config in "$(dirname "$0")"/../../configs/*smoke*.yaml; do
  expect_eq "$(sed -n 's/^ *fragments: *//p' "$config")" "$smoke_fragments" \
    "fragments of $(basename "$config")"
done
expect_eq "$(smoke_fragment_args | grep -cx -- --fragment)" \
  "$(tr ',' '\n' <<<"$smoke_fragments" | wc -l)" "one --fragment per smoke fragment"
echo PASS
