#!/usr/bin/env bash
# The fault catalogue with real guests (docs/reliability.md): each fault gives its defined
# outcome or a clear error, nothing is left running, and a matrix run goes on past a bad cell.
# Faults already covered by integration.boot_faults (hang after the marker, x86 panic, missing
# kernel, missing or wrong-arch firmware, newer database) are not repeated here.
. "$(dirname "$0")/../integration/lib.sh"
# Unmount what this test mounted before lib.sh's trap removes $work.
trap 'umount "$work/ro" "$work/small" 2>/dev/null || true; rm -rf "$work"' EXIT

tag="bbfault$$"
outcome() { q "select outcome from boots order by id desc limit 1"; }
reason() { q "select outcome_reason from boots order by id desc limit 1"; }
boot() { # expected-exit what args...
  local expected=$1 what=$2 status
  shift 2
  set +e
  "$BOOTBENCH" boot --arch arm64 -n 1 "$@" >"$work/out" 2>"$work/err"
  status=$?
  set -e
  expect_eq "$status" "$expected" "$what: exit status ($(tail -3 "$work/err"))"
  printf '%-34s exit %s  %s\n' "$what" "$status" \
    "$( [ "$expected" = 2 ] && tail -1 "$work/err" || echo "$(outcome): $(reason)")"
}

# 1. Hang before the marker with a busy console: init prints forever, never the marker.
boot 1 "hang before marker (busy console)" --append "rdinit=/bin/busybox -- yes" \
  --timeout 30 --silence 25
expect_eq "$(outcome)" timeout "busy hang outcome"
expect_eq "$(q "select boot_seconds is null from boots order by id desc limit 1")" 1 \
  "no boot time without the marker"

# 2. Hang before the marker, silent: init sleeps without a word.
boot 1 "hang before marker (silent)" --append "rdinit=/bin/busybox -- sleep 100000" \
  --silence 15 --timeout 120
expect_eq "$(outcome)" silent "silent hang outcome"
reason | has_match "console silent" || fail "silent hang reason: $(reason)"

# 3. A console that never speaks: the kernel and /init write to a VGA console there is not, and
# the guest then waits forever (without the workload it would power off: a crash before the
# marker, qemu having exited).
printf '#!/bin/sh\nsleep 100000\n' >"$work/hang.sh"
boot 1 "silent console (console=tty0)" --append "console=tty0" --workload "$work/hang.sh" \
  --silence 15 --timeout 120
expect_eq "$(outcome)" silent "silent console outcome"

# 4. Kernel panic on arm64 (x86 is in boot_faults): no init.
boot 1 "kernel panic (rdinit missing)" --append "rdinit=/nonexistent" --timeout 120
expect_eq "$(outcome)" panic "panic outcome"
reason | has_match "Kernel panic" || fail "panic reason: $(reason)"

# 5. qemu crashes: SIGSEGV while the guest boots.
(
  for _ in $(seq 100); do
    pid=$(pgrep -f "qemu-system.*$tag" | head -1 || true)
    if [ -n "$pid" ]; then sleep 2; kill -SEGV "$pid"; exit 0; fi
    sleep 0.2
  done
) &
killer=$!
boot 1 "qemu killed by SIGSEGV" --append "$tag" --workload "$work/hang.sh" --silence 120 \
  --timeout 240
wait "$killer"
expect_eq "$(outcome)" crash "SIGSEGV outcome"
reason | has_match -i "signal 11\|SIGSEGV\|segmentation" || fail "SIGSEGV reason: $(reason)"

# 6. Corrupt firmware: truncated, and random bytes of the right size.
head -c 1048576 /usr/share/qemu-efi-aarch64/QEMU_EFI.fd >"$work/truncated.fd"
boot 1 "truncated firmware" --bios "$work/truncated.fd" --silence 15 --timeout 60
expect_eq "$(outcome)" silent "truncated firmware outcome"
head -c "$(stat -c %s /usr/share/qemu-efi-aarch64/QEMU_EFI.fd)" /dev/urandom >"$work/random.fd"
boot 1 "random-bytes firmware" --bios "$work/random.fd" --silence 15 --timeout 60
case "$(outcome)" in silent | crash) ;; *) fail "random firmware outcome: $(outcome)" ;; esac

# 7. Missing and empty kernel images: clear errors before any qemu starts.
boot 2 "missing kernel" --kernel "$work/absent-Image"
grep -q "kernel not found: $work/absent-Image" "$work/err" || fail "missing kernel: $(cat "$work/err")"
: >"$work/empty-Image"
boot 2 "empty kernel image" --kernel "$work/empty-Image"
grep -qi "empty" "$work/err" || fail "empty kernel message: $(cat "$work/err")"

# 7b. qemu not installed: the boot is an infra-error (bootbench could not boot the guest at
# all, not the kernel failing), so the exit status is 3, and the reason names the program.
mkdir "$work/no-qemu"
for tool in /usr/bin/*; do
  case $(basename "$tool") in qemu-system-*) ;; *) ln -s "$tool" "$work/no-qemu/" ;; esac
done
PATH=$work/no-qemu:/usr/sbin boot 3 "qemu not installed"
expect_eq "$(outcome)" infra-error "outcome without qemu"
reason | has_match "qemu-system-aarch64" || fail "the missing qemu's reason: $(reason)"

# 8. Database on a read-only path: refused with the path named, before booting.
mkdir "$work/ro"
mount -t tmpfs -o ro,size=1m tmpfs "$work/ro"
set +e
BOOTBENCH_DB=$work/ro/results.sqlite "$BOOTBENCH" boot --arch arm64 -n 1 >/dev/null 2>"$work/err"
status=$?
set -e
umount "$work/ro"
expect_eq "$status" 2 "read-only database exit status"
grep -q "$work/ro/results.sqlite" "$work/err" || fail "read-only db message: $(cat "$work/err")"
printf '%-34s exit %s  %s\n' "database on a read-only path" "$status" "$(tail -1 "$work/err")"

# 9. Disk full during a kernel build: a 16 MiB cache that has the unpacked source (linked from
# the real cache, so nothing is downloaded) but no room for the private tree, which is copied
# (no hard links across file systems). The linked source must come out untouched: its
# "private" copy was once the symlink itself, and the build removed the real source's stamp
# (every later build unpacked it again).
real_cache=${BOOTBENCH_CACHE:-/var/cache/bootbench}
real_source=$(ls -d "$real_cache"/sources/linux-source-6.12_*/ | head -n 1)
source_identity=$(stat -c '%i %Y' "$real_source/Makefile" "$real_source/.bootbench-complete")
mkdir "$work/small"
# mode=0755: a tmpfs root is 1777 by default, a cache bootbench refuses as root (item 13).
mount -t tmpfs -o size=16m,mode=0755 tmpfs "$work/small"
mkdir "$work/small/sources"
for entry in "$real_cache"/sources/linux-source-6.12*; do
  if [ -d "$entry" ]; then ln -s "$entry" "$work/small/sources/"; else cp "$entry" "$work/small/sources/"; fi
done
set +e
BOOTBENCH_CACHE=$work/small "$BOOTBENCH" build --arch x86_64 --hz 100 --jobs 2 >/dev/null \
  2>"$work/err"
status=$?
set -e
left=$(find "$work/small" -path "$work/small/sources" -prune -o -name .bootbench-complete -print |
  wc -l)
umount "$work/small"
expect_eq "$status" 3 "disk-full build exit status"
grep -q "no space left on device: $work/small/" "$work/err" ||
  fail "disk-full message: $(head -3 "$work/err")"
expect_eq "$left" 0 "no build marked complete in the full cache"
expect_eq "$(stat -c '%i %Y' "$real_source/Makefile" "$real_source/.bootbench-complete")" \
  "$source_identity" "the linked source after the disk-full build"
printf '%-34s exit %s  %s\n' "disk full during a build" "$status" \
  "$(grep -m1 'error:' "$work/err" | cut -c1-200)"

# 10. A matrix goes on past a bad cell: one rdinit value panics, the other cell boots.
# The smoke-matrix kernel (cached after integration.run_matrix).
cat >"$work/exp.yaml" <<YAML
name: fault-matrix
kernel:
  arch: arm64
  fragments: $smoke_fragments
  variants:
    - name: stock
axes:
  hz: [250]
  cmdline:
    rdinit: [/init, /nonexistent]
  smp: [1]
  firmware: [QEMU_EFI.fd]
  machine: ["virt,acpi=off"]
repeats: 2
timeout: 120
silence: 20
YAML
set +e
"$BOOTBENCH" run "$work/exp.yaml" --seed 3 >"$work/out" 2>"$work/err"
status=$?
set -e
matrix_run=$(q "select max(id) from runs")
in_cell() { # rdinit-value outcome
  q "select count(*) from boots where run_id = $matrix_run and outcome = '$2'
       and json_extract(params_json, '$.rdinit') = '$1'"
}
expect_eq "$(in_cell /init ok)" 2 "good cell boots in the matrix ($(q "select group_concat(outcome || ': ' || outcome_reason, '; ') from boots where run_id = $matrix_run"))"
# Without an init this tinyconfig kernel stops printing (silent); either failure will do.
expect_eq "$(( $(in_cell /nonexistent silent) + $(in_cell /nonexistent panic) ))" 2 \
  "bad cell boots in the matrix"
expect_eq "$(q "select status from runs order by id desc limit 1")" done "matrix run status"
printf '%-34s exit %s  %s\n' "matrix with a failing cell" "$status" \
  "$(q "select group_concat(outcome) from boots where run_id = (select max(id) from runs)")"

no_qemu_left
pgrep -f "qemu-system.*$tag" >/dev/null && fail "a qemu is still running"
echo PASS
