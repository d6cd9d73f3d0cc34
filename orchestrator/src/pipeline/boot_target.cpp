#include "pipeline/boot_target.h"

#include "artifacts/default_kernel.h"
#include "artifacts/kernel_build.h"
#include "store/build_store.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/paths.h"
#include "vm/kernel_image.h"
#include "vm/libvirt_launcher.h"
#include "vm/qemu_launcher.h"

#include <fmt/format.h>

namespace bb {

namespace {

BootKernel cached_build(const std::filesystem::path& db_path, const std::string& build) {
    Database db(db_path);
    const auto row = find_cached_build(db, build);
    if (!row) {
        throw Error("no cached build with key " + build + " in this database or in " +
                    (cache_dir() / "builds").string() + " (see bootbench builds)");
    }
    const auto arch = arch_from_string(row->arch);
    if (!arch) {
        throw Error("cached build " + row->key + " has an unknown arch: " + row->arch);
    }
    BuildStore(db).touch(row->key);
    return {std::filesystem::path(row->artifact_dir) / profile(*arch).image_target, *arch,
            row->key};
}

} // namespace

BootKernel resolve_boot_kernel(const std::filesystem::path& db_path, const std::string& build,
                               const std::string& kernel, Arch arch) {
    BootKernel resolved;
    if (!build.empty()) {
        if (!kernel.empty()) {
            throw Error("give --kernel or --build, not both");
        }
        resolved = cached_build(db_path, build);
    } else if (kernel.empty()) {
        auto image = default_kernel(arch);
        if (!image) {
            throw Error(fmt::format("no --kernel given and no default {} kernel in the cache: run "
                                    "scripts/setup.sh, or pass --kernel PATH",
                                    to_string(arch)));
        }
        resolved = {*image, arch, std::nullopt};
    } else {
        resolved = {kernel, arch, std::nullopt};
    }
    // Before anything else: qemu would boot a wrong file silently until the silence limit.
    require_kernel_image(resolved.image, resolved.arch);
    return resolved;
}

BootMachine BootMachine::local() {
    BootMachine machine;
    machine.m_launcher = std::make_unique<QemuLauncher>();
    return machine;
}

BootMachine BootMachine::libvirt(const std::string& uri, bool allow_uri_programs) {
    BootMachine machine;
    machine.m_connection = std::make_unique<LibvirtConnection>(uri, allow_uri_programs);
    machine.m_volumes = std::make_unique<LibvirtVolumes>(*machine.m_connection);
    machine.m_launcher =
        std::make_unique<LibvirtLauncher>(*machine.m_connection, *machine.m_volumes);
    machine.m_host = machine.m_connection->host_facts();
    machine.m_uri = uri;
    return machine;
}

} // namespace bb
