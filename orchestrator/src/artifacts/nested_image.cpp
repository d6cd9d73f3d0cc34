#include "artifacts/nested_image.h"

#include "artifacts/default_kernel.h"
#include "artifacts/guest_image.h"
#include "artifacts/varstore_template.h"
#include "guest/busybox.h"
#include "guest/foreign_packages.h"
#include "guest/l2_devices.h"
#include "guest/library_closure.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"
#include "vm/firmware.h"

#include <fmt/format.h>
#include <fstream>

namespace bb {

namespace fs = std::filesystem;

namespace {
constexpr const char* k_qemu_package = "qemu-system-arm"; // holds qemu-system-aarch64 too

fs::path l2_kernel_path(const NestedImageRequest& request) {
    if (request.l2_kernel) {
        if (!fs::is_regular_file(*request.l2_kernel)) {
            throw Error("nested.l2_kernel: " + request.l2_kernel->string() + " is not a file");
        }
        return *request.l2_kernel;
    }
    if (auto kernel = default_kernel(Arch::Arm64)) {
        return *kernel;
    }
    throw Error("no L2 kernel: Debian's cloud arm64 kernel is not in " +
                (cache_dir() / "debs").string() +
                " (run scripts/setup.sh) and the experiment names no nested.l2_kernel");
}

// The config a kernel image came with: `config` beside a bootbench build's Image, or
// boot/config-V beside a Debian package's boot/vmlinuz-V. None for a bare image.
std::optional<fs::path> kernel_config_beside(const fs::path& kernel_image) {
    const std::string name = kernel_image.filename().string();
    for (const fs::path& candidate :
         {kernel_image.parent_path() / "config",
          kernel_image.parent_path() /
              ("config-" + (name.rfind("vmlinuz-", 0) == 0 ? name.substr(8) : name))}) {
        if (fs::is_regular_file(candidate)) {
            return candidate;
        }
    }
    return std::nullopt;
}

bool config_builds_in(const std::optional<fs::path>& config, std::string_view symbol) {
    if (!config) {
        return false;
    }
    std::ifstream in(*config);
    const std::string wanted = std::string(symbol) + "=y";
    for (std::string line; std::getline(in, line);) {
        if (line == wanted) {
            return true;
        }
    }
    return false;
}

// The modules L2's devices need that the kernel does not build in, in load order. A driver
// that is neither a module of the kernel nor built in would leave the device unbound: the boot
// would run, but register nothing, so it is refused here.
std::vector<std::string> l2_driver_modules(const fs::path& kernel,
                                           const std::vector<std::string>& devices) {
    const std::optional<fs::path> config = kernel_config_beside(kernel);
    std::vector<std::string> modules;
    for (const L2Module& module : l2_device_modules(devices)) {
        if (config_builds_in(config, module.symbol)) {
            continue;
        }
        try {
            kernel_module_named(kernel, std::string(module.name));
        } catch (const Error& missing) {
            throw Error(fmt::format("nested.l2_devices: the L2 kernel has no driver module {} "
                                    "and {} ({}); use an L2 kernel that has it: {}",
                                    module.name,
                                    config ? "its config does not build it in"
                                           : "no config beside it says it is built in",
                                    module.symbol, missing.what()));
        }
        modules.emplace_back(module.name);
    }
    return modules;
}
} // namespace

NestedImage prepare_nested_image(const NestedImageRequest& request,
                                 const std::function<void(const std::string&)>& note) {
    NestedImage nested;
    nested.l2_kernel = l2_kernel_path(request);
    nested.l2_driver_modules = l2_driver_modules(nested.l2_kernel, request.l2.devices);
    const Initramfs l2_initrd =
        prepare_guest_image(Arch::Arm64, request.workload, nested.l2_kernel, request.programs,
                            request.l2_modules, nested.l2_driver_modules);
    const Firmware firmware = resolve_firmware("QEMU_EFI.fd", Arch::Arm64);

    ForeignPackages packages(Arch::Arm64, cache_dir() / "nested", note);
    const fs::path qemu = packages.unpack_closure(k_qemu_package) / "usr" / "bin" /
                          fs::path(request.l2.qemu).filename();
    if (!fs::is_regular_file(qemu)) {
        throw RuntimeFailure(fmt::format("{} holds no {}: delete {} and try again", k_qemu_package,
                                         qemu.filename().string(),
                                         (cache_dir() / "nested").string()));
    }
    const LibraryClosure closure =
        library_closure({qemu, std::string(k_qemu_package) + ":arm64"}, packages);

    L2Launch l2 = request.l2;
    std::optional<VarstoreTemplate> varstore;
    if (request.full_varstore_live) {
        varstore = prepare_full_varstore(
            {nested.l2_kernel, firmware.path, *request.full_varstore_live, l2.memory_mb}, note);
        l2.varstore_template = std::string(k_l2_varstore_template);
        nested.varstore_fill = varstore->fill_report;
    }

    InitramfsSpec spec;
    spec.arch = Arch::Arm64;
    spec.busybox = find_busybox(Arch::Arm64);
    spec.init_script = nested_init_script(l2);
    spec.files.push_back({request.l2.qemu, qemu, 0755});
    for (const auto& library : closure.libraries) {
        const std::string guest_path = request.l2.library_path + "/" + library.soname;
        spec.files.push_back({guest_path, library.file.path, 0755});
        // The interpreter must also sit where PT_INTERP names it (/lib/ld-linux-aarch64.so.1).
        if (closure.interpreter && fs::path(*closure.interpreter).filename() == library.soname &&
            *closure.interpreter != guest_path) {
            spec.files.push_back({*closure.interpreter, library.file.path, 0755});
        }
    }
    spec.files.push_back({request.l2.firmware, firmware.path, 0644});
    spec.files.push_back({request.l2.kernel, nested.l2_kernel, 0644});
    spec.files.push_back({request.l2.initrd, l2_initrd.path, 0644});
    if (varstore) {
        spec.files.push_back({l2.varstore_template, varstore->path, 0644});
    }
    nested.initramfs = build_initramfs(spec, cache_dir());
    nested.sha256 = sha256_file(nested.initramfs.path);
    nested.libraries = static_cast<int>(closure.libraries.size());
    nested.debs = closure.packages;
    nested.debs.insert(nested.debs.begin(), std::string(k_qemu_package) + ":arm64");
    return nested;
}

} // namespace bb
