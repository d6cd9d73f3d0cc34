#include "vm/domain_xml.h"

#include "util/arch.h"
#include "util/error.h"
#include "util/markup_escape.h"

#include <fmt/format.h>
#include <sstream>
#include <vector>

namespace bb {

namespace {
// The machine options libvirt can express, as qemu's -M text names them.
struct MachineShape {
    std::string type;
    bool acpi = true; // qemu's default (q35; virt booted through firmware)
    std::string gic_version;
};

MachineShape machine_shape(const std::string& machine) {
    MachineShape shape;
    std::istringstream parts(machine);
    std::getline(parts, shape.type, ',');
    for (std::string option; std::getline(parts, option, ',');) {
        if (option == "acpi=off" || option == "acpi=on") {
            shape.acpi = option == "acpi=on";
        } else if (option.rfind("gic-version=", 0) == 0) {
            shape.gic_version = option.substr(option.find('=') + 1);
        } else {
            throw Error(fmt::format("machine '{}': option '{}' has no libvirt form (libvirt "
                                    "takes acpi=on|off and gic-version=N); boot this guest with "
                                    "the qemu launcher",
                                    machine, option));
        }
    }
    return shape;
}
} // namespace

std::string domain_xml(const QemuSpec& spec, const std::string& name) {
    const MachineShape shape =
        machine_shape(spec.machine.empty() ? default_machine(spec.arch) : spec.machine);
    const ArchProfile& arch = profile(spec.arch);
    const std::string cpu = spec.cpu.empty() ? "max" : spec.cpu;
    // x86: without <acpi/> libvirt turns ACPI off and the guest's power-off never ends the
    // domain. arm64: libvirt refuses <acpi/> without a UEFI loader and leaves qemu's default
    // (on under firmware), so only acpi=off needs saying, as a qemu argument.
    std::string features;
    std::vector<std::string> qemu_args;
    if (arch.libvirt_acpi_element && shape.acpi) {
        features += "<acpi/>";
    } else if (!arch.libvirt_acpi_element && !shape.acpi) {
        qemu_args = {"-machine", "acpi=off"};
    }
    if (!shape.gic_version.empty()) {
        features += fmt::format("<gic version='{}'/>", xml_escape(shape.gic_version));
    }
    qemu_args.insert(qemu_args.end(), spec.extra_args.begin(), spec.extra_args.end());

    std::string xml;
    auto line = [&xml](const std::string& text) { xml += text + "\n"; };
    line(fmt::format(
        "<domain type='{}'{}>", spec.accel == Accel::Kvm ? "kvm" : "qemu",
        qemu_args.empty() ? "" : " xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'"));
    line(fmt::format("  <name>{}</name>", xml_escape(name)));
    line(fmt::format("  <memory unit='MiB'>{}</memory>", spec.memory_mb));
    line(fmt::format("  <vcpu>{}</vcpu>", spec.smp));
    line("  <os>");
    line(fmt::format("    <type arch='{}' machine='{}'>hvm</type>", arch.qemu_name,
                     xml_escape(shape.type)));
    if (spec.firmware) {
        line(
            fmt::format("    <loader type='rom'>{}</loader>", xml_escape(spec.firmware->string())));
    }
    line(fmt::format("    <kernel>{}</kernel>", xml_escape(spec.kernel.string())));
    if (spec.initrd) {
        line(fmt::format("    <initrd>{}</initrd>", xml_escape(spec.initrd->string())));
    }
    line(fmt::format("    <cmdline>{}</cmdline>", xml_escape(effective_cmdline(spec))));
    line("  </os>");
    if (!features.empty()) {
        line("  <features>" + features + "</features>");
    }
    if (cpu == "max" && arch.libvirt_cpu_mode_maximum) {
        line("  <cpu mode='maximum' check='none'/>");
    } else {
        line(fmt::format("  <cpu mode='custom' match='exact'><model>{}</model></cpu>",
                         xml_escape(cpu)));
    }
    line("  <on_poweroff>destroy</on_poweroff>");
    line("  <on_reboot>destroy</on_reboot>");
    line("  <on_crash>destroy</on_crash>");
    line("  <devices>");
    line("    <serial type='pty'><target port='0'/></serial>");
    line("    <console type='pty'><target type='serial' port='0'/></console>");
    line("    <memballoon model='none'/>");
    line("  </devices>");
    if (!qemu_args.empty()) {
        line("  <qemu:commandline>");
        for (const auto& arg : qemu_args) {
            line(fmt::format("    <qemu:arg value='{}'/>", xml_escape(arg)));
        }
        line("  </qemu:commandline>");
    }
    line("</domain>");
    return xml;
}

} // namespace bb
