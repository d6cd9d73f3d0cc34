#!/usr/bin/env bash
# Real boots through libvirt: a transient domain per boot on a private libvirtd
# (qemu:///system, local paths) and through loopback TCP (qemu+tcp://, files uploaded to the
# host's storage pool once, by content hash, and checked by content before reuse). Every sample
# keeps its domain XML, the qemu argv libvirt derived from it and its host; no domain is left
# behind, no domain of another database is touched, and the machine's /etc/libvirt is unchanged.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/libvirt_lib.sh"

# A URI that makes libvirt run a program is refused before anything runs.
printf '#!/bin/sh\ntouch "%s/ran"\n' "$work" >"$work/program.sh" && chmod +x "$work/program.sh"
if "$BOOTBENCH" boot --arch x86_64 --libvirt "qemu+ext:///system?command=$work/program.sh" \
  2>"$work/ext.err"; then fail "a qemu+ext URI was accepted"; fi
grep -q 'makes libvirt run a program: transport "ext" executes command=' "$work/ext.err" ||
  fail "qemu+ext refusal: $(cat "$work/ext.err")"
grep -q -- '--allow-uri-programs' "$work/ext.err" || fail "the refusal does not name the opt-in"
[ ! -e "$work/ran" ] || fail "the qemu+ext command ran"

libvirt_start
tcp_uri="qemu+tcp://127.0.0.1:$libvirt_tcp_port/system"

# --dry-run prints the domain XML: TCG unless probed, ACPI on x86, escaped command line.
"$BOOTBENCH" boot --arch x86_64 --libvirt qemu:///system --append "a='<&>'" --dry-run >"$work/dry.xml"
grep -q "<domain type='qemu'>" "$work/dry.xml" || fail "dry-run domain type"
grep -q "<features><acpi/></features>" "$work/dry.xml" || fail "dry-run ACPI"
grep -q "a=&apos;&lt;&amp;&gt;&apos;" "$work/dry.xml" || fail "dry-run escaping"

# Guests of other databases on the same host, paused: run 1 of a database with another id, and
# run 1 as older bootbench versions named it. This database's run 1 must leave both alone.
for foreign in bootbench-1-1 bootbench-00000000-1-1; do
  sed "s|<name>bootbench-dry-run</name>|<name>$foreign</name>|" "$work/dry.xml" >"$work/$foreign.xml"
  virsh -c qemu:///system create "$work/$foreign.xml" --paused >/dev/null || fail "cannot start $foreign"
done

# x86_64 under OVMF on the local daemon, accel auto: KVM only after a probe (a libvirt host
# advertises kvm whenever /dev/kvm exists, so only the probe decides).
"$BOOTBENCH" boot --arch x86_64 --bios OVMF.fd --libvirt qemu:///system -n 2 --append quiet
expect_eq "$(q "select count(*) from boots where outcome = 'ok' and launcher = 'libvirt'")" 2 "ok libvirt boots"
expect_eq "$(q "select count(*) from boots where boot_seconds > 0.5 and boot_seconds < 120")" 2 "plausible boot times"
expect_eq "$(q "select count(*) from boots where domain_xml like '%<loader type=''rom''>%OVMF.fd</loader>%'")" 2 "domain XML kept"
expect_eq "$(q "select count(*) from boots where argv_json like '[\"%qemu-system-x86_64\",%' and argv_json like '%\"-bios\"%'")" 2 "libvirt's qemu argv kept"
expect_eq "$(q "select distinct h.libvirt_uri from boots b join hosts h on h.id = b.host_id")" qemu:///system "host recorded"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text = 'boot-done'")" 2 "marker events"
expect_eq "$(q "select count(*) from boots where domain_xml like '%<name>bootbench-________-' || run_id || '-%'")" 2 "domains named after the database and the run"
expect_eq "$(q "select min(run_id) from boots")" 1 "the foreign domains share the run number"
for foreign in bootbench-1-1 bootbench-00000000-1-1; do
  expect_eq "$(virsh -c qemu:///system domstate "$foreign" 2>&1)" paused "another database's $foreign"
  virsh -c qemu:///system destroy "$foreign" >/dev/null
done
if [ -e /dev/kvm ]; then
  # A probe domain that cannot even start (PVM: qemu aborts on an MSR) is no cached verdict,
  # but the accelerator must still come from the probe, never from libvirt's capabilities.
  reason=$(q "select distinct accel_reason from boots")
  case "$reason" in *probe*) ;; *) fail "accel without a probe on a KVM host: $reason" ;; esac
fi
expect_eq "$(libvirt_domain_count)" 0 "no domain left"

# arm64 under QEMU_EFI.fd through TCP: kernel, initramfs and firmware are uploaded once.
"$BOOTBENCH" boot --arch arm64 --bios QEMU_EFI.fd --libvirt "$tcp_uri" -n 2
expect_eq "$(q "select count(*) from boots where outcome = 'ok' and libvirt_uri = '$tcp_uri'")" 2 "ok boots over tcp"
expect_eq "$(q "select count(*) from boots where libvirt_uri = '$tcp_uri' and domain_xml like '%<kernel>/var/lib/libvirt/images/bootbench/%'")" 2 "kernel from the pool"
kernel=$(q "select kernel_path from boots where libvirt_uri = '$tcp_uri' limit 1")
volume=$(sha256sum "$kernel" | cut -c1-16)-$(basename "$kernel")
virsh -c "$tcp_uri" vol-info --pool bootbench "$volume" >/dev/null || fail "no volume $volume in the pool"
# Console of a libvirt boot is complete from the first byte (attached while paused).
q "select writefile('$work/console.gz', console_gz) from boots where libvirt_uri = '$tcp_uri' limit 1" >/dev/null
zcat "$work/console.gz" >"$work/console.txt"
grep -q "Booting Linux on physical CPU 0x0" "$work/console.txt" || fail "early console lines lost"
expect_eq "$(libvirt_domain_count)" 0 "no domain left"

# A killed upload leaves a volume of the right name and size whose tail is zeros: the next boot
# must notice (content hash) and upload the file again instead of booting the broken kernel.
pool_file=$libvirt_state/lib/images/bootbench/$volume
size=$(stat -c %s "$pool_file")
truncate -s 65536 "$pool_file" && truncate -s "$size" "$pool_file"
[ "$(sha256sum <"$pool_file")" != "$(sha256sum <"$kernel")" ] || fail "the volume was not damaged"
"$BOOTBENCH" boot --arch arm64 --bios QEMU_EFI.fd --libvirt "$tcp_uri" -n 1 ||
  fail "boot after a damaged volume: $(q "select outcome, outcome_reason from boots order by id desc limit 1")"
expect_eq "$(sha256sum <"$pool_file")" "$(sha256sum <"$kernel")" "the damaged volume was uploaded again"
expect_eq "$(libvirt_domain_count)" 0 "no domain left"
libvirt_stop
echo PASS
