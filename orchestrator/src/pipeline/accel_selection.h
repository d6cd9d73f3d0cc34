#pragma once
#include "store/boot_store.h"
#include "util/host_facts.h"
#include "vm/launcher.h"
#include "vm/qemu_spec.h"

#include <string>

namespace bb {

enum class AccelRequest { Auto, Kvm, Tcg };

struct AccelChoice {
    Accel accel = Accel::Tcg;
    std::string reason; // recorded with every boot and printed once
};

// Why KVM cannot even be tried for this guest on this host (foreign arch, no /dev/kvm), or "".
std::string kvm_impossible_reason(Arch guest, const HostFacts& host);

// `auto`: KVM only after a real probe boot of `probe_spec` reaches its marker under KVM within
// `probe_timeout_s`; the verdict is cached per host, guest arch and qemu version in the store.
// On these machines KVM guests hang in the decompressor: the probe times out and we fall back.
AccelChoice choose_accel(AccelRequest request, const QemuSpec& probe_spec, const HostFacts& host,
                         long long host_id, BootStore& store, Launcher& launcher,
                         double probe_timeout_s = 10, bool reprobe = false);

} // namespace bb
