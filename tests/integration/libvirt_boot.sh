#!/usr/bin/env bash
# Real boots through libvirt: a transient domain per boot on this machine's libvirtd
# (qemu:///system, local paths) and through loopback TCP (qemu+tcp://, files uploaded to the
# host's storage pool once, by content hash). Every sample keeps its domain XML, the qemu argv
# libvirt derived from it and its host; no domain is left behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/libvirt_lib.sh"
libvirt_start
tcp_uri="qemu+tcp://127.0.0.1:$libvirt_tcp_port/system"
domains_left() { virsh -c qemu:///system list --name | grep -c '^bootbench-' || true; }

# --dry-run prints the domain XML: TCG unless probed, ACPI on x86, escaped command line.
"$BOOTBENCH" boot --arch x86_64 --libvirt qemu:///system --append "a='<&>'" --dry-run >"$work/dry.xml"
grep -q "<domain type='qemu'>" "$work/dry.xml" || fail "dry-run domain type"
grep -q "<features><acpi/></features>" "$work/dry.xml" || fail "dry-run ACPI"
grep -q "a=&apos;&lt;&amp;&gt;&apos;" "$work/dry.xml" || fail "dry-run escaping"

# x86_64 under OVMF on the local daemon, accel auto: KVM only after a probe (a libvirt host
# advertises kvm whenever /dev/kvm exists, so only the probe decides).
"$BOOTBENCH" boot --arch x86_64 --bios OVMF.fd --libvirt qemu:///system -n 2 --append quiet
expect_eq "$(q "select count(*) from boots where outcome = 'ok' and launcher = 'libvirt'")" 2 "ok libvirt boots"
expect_eq "$(q "select count(*) from boots where boot_seconds > 0.5 and boot_seconds < 120")" 2 "plausible boot times"
expect_eq "$(q "select count(*) from boots where domain_xml like '%<loader type=''rom''>%OVMF.fd</loader>%'")" 2 "domain XML kept"
expect_eq "$(q "select count(*) from boots where argv_json like '[\"%qemu-system-x86_64\",%' and argv_json like '%\"-bios\"%'")" 2 "libvirt's qemu argv kept"
expect_eq "$(q "select distinct h.libvirt_uri from boots b join hosts h on h.id = b.host_id")" qemu:///system "host recorded"
expect_eq "$(q "select count(*) from boot_events where kind = 'marker' and text = 'boot-done'")" 2 "marker events"
expect_eq "$(q "select count(*) from boots where domain_xml like '%<name>bootbench-' || run_id || '-%'")" 2 "domains named after the run"
if [ -e /dev/kvm ]; then
  # A probe domain that cannot even start (PVM: qemu aborts on an MSR) is no cached verdict,
  # but the accelerator must still come from the probe, never from libvirt's capabilities.
  reason=$(q "select distinct accel_reason from boots")
  case "$reason" in *probe*) ;; *) fail "accel without a probe on a KVM host: $reason" ;; esac
fi
expect_eq "$(domains_left)" 0 "no domain left"

# arm64 under QEMU_EFI.fd through TCP: kernel, initramfs and firmware are uploaded once.
"$BOOTBENCH" boot --arch arm64 --bios QEMU_EFI.fd --libvirt "$tcp_uri" -n 2
expect_eq "$(q "select count(*) from boots where outcome = 'ok' and libvirt_uri = '$tcp_uri'")" 2 "ok boots over tcp"
expect_eq "$(q "select count(*) from boots where libvirt_uri = '$tcp_uri' and domain_xml like '%<kernel>/var/lib/libvirt/images/bootbench/%'")" 2 "kernel from the pool"
kernel=$(q "select kernel_path from boots where libvirt_uri = '$tcp_uri' limit 1")
volume=$(sha256sum "$kernel" | cut -c1-16)-$(basename "$kernel")
virsh -c "$tcp_uri" vol-info --pool bootbench "$volume" >/dev/null || fail "no volume $volume in the pool"
# Console of a libvirt boot is complete from the first byte (attached while paused).
q "select writefile('$work/console.gz', console_gz) from boots where libvirt_uri = '$tcp_uri' limit 1" >/dev/null
zcat "$work/console.gz" | grep -q "Booting Linux on physical CPU 0x0" || fail "early console lines lost"
expect_eq "$(domains_left)" 0 "no domain left"
echo PASS
