#include "vm/qemu_spec.h"

#include "util/arch.h"

#include <fmt/format.h>
#include <sstream>

namespace bb {

std::string_view to_string(Accel accel) {
    return accel == Accel::Kvm ? "kvm" : "tcg";
}

std::string qemu_binary(Arch arch) {
    return "qemu-system-" + std::string(profile(arch).qemu_name);
}

std::string default_machine(Arch arch) {
    return std::string(profile(arch).default_machine);
}

std::string console_parameter(Arch arch) {
    return "console=" + std::string(profile(arch).console);
}

std::string effective_cmdline(const QemuSpec& spec) {
    // Only a parameter named console= counts (netconsole= is something else).
    std::istringstream words(spec.cmdline);
    for (std::string word; words >> word;) {
        if (word.rfind("console=", 0) == 0) {
            return spec.cmdline;
        }
    }
    return spec.cmdline.empty() ? console_parameter(spec.arch)
                                : console_parameter(spec.arch) + " " + spec.cmdline;
}

std::vector<std::string> qemu_argv(const QemuSpec& spec) {
    std::vector<std::string> argv{qemu_binary(spec.arch)};
    auto add = [&argv](std::string option, std::string value) {
        argv.push_back(std::move(option));
        argv.push_back(std::move(value));
    };
    add("-M", spec.machine.empty() ? default_machine(spec.arch) : spec.machine);
    add("-cpu", spec.cpu.empty() ? "max" : spec.cpu);
    add("-accel", spec.accel == Accel::Kvm ? "kvm" : "tcg");
    add("-smp", std::to_string(spec.smp));
    add("-m", std::to_string(spec.memory_mb));
    if (spec.firmware) {
        add("-bios", spec.firmware->string());
    }
    add("-kernel", spec.kernel.string());
    if (spec.initrd) {
        add("-initrd", spec.initrd->string());
    }
    add("-append", effective_cmdline(spec));
    add("-display", "none");
    add("-serial", "stdio");
    add("-monitor", "none");
    add("-nic", "none");
    argv.emplace_back("-no-reboot");
    argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
    return argv;
}

} // namespace bb
