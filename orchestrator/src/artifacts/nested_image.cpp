#include "artifacts/nested_image.h"

#include "artifacts/default_kernel.h"
#include "artifacts/guest_image.h"
#include "artifacts/varstore_template.h"
#include "guest/busybox.h"
#include "guest/foreign_packages.h"
#include "guest/library_closure.h"
#include "util/error.h"
#include "util/paths.h"
#include "vm/firmware.h"

#include <fmt/format.h>

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
} // namespace

NestedImage prepare_nested_image(const NestedImageRequest& request,
                                 const std::function<void(const std::string&)>& note) {
    NestedImage nested;
    nested.l2_kernel = l2_kernel_path(request);
    const Initramfs l2_initrd = prepare_guest_image(Arch::Arm64, request.workload, nested.l2_kernel,
                                                    request.programs, request.l2_modules);
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
    nested.libraries = static_cast<int>(closure.libraries.size());
    nested.debs = closure.packages;
    nested.debs.insert(nested.debs.begin(), std::string(k_qemu_package) + ":arm64");
    return nested;
}

} // namespace bb
