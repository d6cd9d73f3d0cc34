#!/usr/bin/env bash
# `bootbench doctor` fails only for a missing piece bootbench needs: on a machine where guests
# run under TCG because KVM is absent it prints a note and exits 0 (a private mount namespace
# whose /dev has no kvm stands in for such a machine); without qemu on PATH it exits 1.
. "$(dirname "$0")/lib.sh"

"$BOOTBENCH" doctor >"$work/here.txt" || fail "doctor on this machine: exit $?: $(cat "$work/here.txt")"
grep -q "^All required checks passed" "$work/here.txt" || fail "summary: $(tail -1 "$work/here.txt")"

without_kvm() { # command...: runs it where /dev holds only the basic nodes, no kvm
  unshare --mount --propagation private bash -euc '
    old=$1; shift
    mkdir -p "$old"
    mount --rbind /dev "$old"
    mount -t tmpfs -o mode=755 bootbench-test-dev /dev
    for node in null zero full random urandom tty; do
      touch "/dev/$node"
      mount --bind "$old/$node" "/dev/$node"
    done
    exec "$@"' without_kvm "$work/dev" "$@"
}
status=0
without_kvm "$BOOTBENCH" doctor >"$work/tcg.txt" 2>&1 || status=$?
expect_eq "$status" 0 "doctor exit status without /dev/kvm ($(tail -1 "$work/tcg.txt"))"
grep -q "^  note /dev/kvm  *absent or no access: guests run under TCG$" "$work/tcg.txt" ||
  fail "no note for the missing /dev/kvm: $(grep kvm "$work/tcg.txt")"
# The timing-noise section adds a note per condition this host could set quieter (how many
# depends on the machine); the summary counts every note line, /dev/kvm's among them.
notes=$(grep -c "^  note " "$work/tcg.txt")
[ "$notes" = 1 ] && noun=note || noun=notes
grep -q "^All required checks passed ($notes $noun)\.$" "$work/tcg.txt" ||
  fail "summary without /dev/kvm ($notes note lines): $(tail -1 "$work/tcg.txt")"
grep -q "^timing noise$" "$work/tcg.txt" || fail "no timing-noise section"
grep -qE "^  (ok|note) +governor " "$work/tcg.txt" || fail "no governor line under timing noise"
[ ! -e "$work/dev/null" ] || fail "the private /dev leaked out of its namespace"

# A required piece missing is still a problem: no qemu (nor compilers) on PATH.
status=0
PATH=/nonexistent "$BOOTBENCH" doctor >"$work/bare.txt" 2>&1 || status=$?
expect_eq "$status" 3 "doctor exit status without qemu"
grep -q "^  --   qemu arm64 " "$work/bare.txt" || fail "missing qemu not a problem: $(cat "$work/bare.txt")"
grep -q "problem(s) found" "$work/bare.txt" || fail "summary without qemu: $(tail -1 "$work/bare.txt")"

# --json: the same checks as data, and the same exit status.
status=0
PATH=/nonexistent "$BOOTBENCH" doctor --json >"$work/bare.json" 2>&1 || status=$?
expect_eq "$status" 3 "doctor --json exit status without qemu"
expect_eq "$(jq -r '[.checks[] | select(.status == "problem")] | length' "$work/bare.json")" \
  "$(grep -c '^  --   ' "$work/bare.txt")" "problems in --json and in the text"
expect_eq "$(jq -r '.checks[] | select(.what == "qemu arm64") | "\(.section) \(.status)"' \
  "$work/bare.json")" "qemu problem" "qemu arm64 in --json"
expect_eq "$(jq -r '.checks | length' "$work/bare.json")" \
  "$(grep -cE '^  (ok|--|note) ' "$work/bare.txt")" "every check of the text in --json"
echo PASS
