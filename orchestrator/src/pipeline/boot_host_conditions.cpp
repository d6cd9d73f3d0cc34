#include "pipeline/boot_host_conditions.h"

#include "util/arch.h"
#include "util/host_conditions.h"
#include "util/run_command.h"
#include "vm/qemu_spec.h"

#include <map>
#include <mutex>

namespace bb {

namespace {

// libvirt's local URIs have no host part ("qemu:///system"); a fleet host's do.
bool ran_here(const BootRecord& boot) {
    return boot.launcher == "qemu" || boot.libvirt_uri.rfind("qemu:///", 0) == 0;
}

std::string qemu_program(const BootRecord& boot) {
    if (boot.launcher == "qemu" && !boot.argv.empty()) {
        return boot.argv.front();
    }
    const auto arch = arch_from_string(boot.arch);
    return arch ? qemu_binary(*arch) : std::string();
}

// `qemu --version` once per binary and process: a run stores hundreds of boots.
std::string qemu_version(const std::string& program) {
    static std::mutex mutex;
    static std::map<std::string, std::string> versions;
    const std::lock_guard lock(mutex);
    auto found = versions.find(program);
    if (found == versions.end()) {
        const std::string version = program.empty() ? std::string() : version_of(program);
        found = versions.emplace(program, version.empty() ? k_not_exposed : version).first;
    }
    return found->second;
}

} // namespace

std::optional<std::string> boot_host_conditions(const BootRecord& boot) {
    if (!ran_here(boot)) {
        return std::nullopt;
    }
    std::vector<HostCondition> conditions = read_host_conditions();
    conditions.push_back({"qemu", qemu_version(qemu_program(boot))});
    conditions.push_back({"accel", boot.accel.empty() ? k_not_exposed : boot.accel});
    return host_conditions_json(conditions).dump();
}

} // namespace bb
