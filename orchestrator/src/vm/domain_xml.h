#pragma once
#include "vm/qemu_spec.h"

#include <string>
#include <string_view>

namespace bb {

// The libvirt domain of one boot, from the same typed spec the qemu argv comes from: a
// transient guest with direct kernel boot, the serial port as its console, no network, no
// display, destroyed on power-off, reboot or crash (a reboot would hide a panic).
// Domain type `qemu` (TCG) unless the spec asks for KVM — libvirt advertises kvm whenever
// /dev/kvm exists, so only our own probe decides. Extra qemu arguments go through libvirt's
// qemu:commandline namespace. Throws Error for what libvirt cannot express (machine options).
std::string domain_xml(const QemuSpec& spec, const std::string& name);

} // namespace bb
