#include "artifacts/guest_image.h"

#include "guest/busybox.h"
#include "guest/init_script.h"
#include "guest/program_builder.h"
#include "util/error.h"
#include "util/paths.h"

#include <algorithm>
#include <fmt/format.h>

namespace bb {

namespace fs = std::filesystem;

std::vector<fs::path> kernel_modules_beside(const fs::path& kernel_image) {
    std::vector<fs::path> modules;
    const fs::path directory = kernel_image.parent_path() / "modules";
    if (kernel_image.empty() || !fs::is_directory(directory)) {
        return modules;
    }
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.is_regular_file() && entry.path().extension() == ".ko") {
            modules.push_back(entry.path());
        }
    }
    std::sort(modules.begin(), modules.end()); // the image key must not depend on readdir order
    return modules;
}

fs::path kernel_module_named(const fs::path& kernel_image, const std::string& name) {
    const std::string file = name + ".ko";
    const fs::path beside = kernel_image.parent_path() / "modules" / file;
    if (fs::is_regular_file(beside)) {
        return beside;
    }
    // A Debian linux-image package unpacked with dpkg -x: boot/vmlinuz-V beside lib/modules/V/.
    const fs::path tree = kernel_image.parent_path().parent_path() / "lib" / "modules";
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(tree, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        if (it->is_regular_file() && it->path().filename() == file) {
            return it->path();
        }
    }
    throw Error(fmt::format("no module {} for kernel {}: looked in {} and under {}", file,
                            kernel_image.string(), beside.parent_path().string(), tree.string()));
}

Initramfs prepare_guest_image(Arch arch, const std::optional<fs::path>& workload_script,
                              const fs::path& kernel_image, const std::vector<fs::path>& programs,
                              const std::vector<std::string>& module_names,
                              const std::vector<std::string>& boot_modules) {
    InitramfsSpec spec;
    spec.arch = arch;
    spec.busybox = find_busybox(arch);
    if (workload_script) {
        if (!fs::exists(*workload_script)) {
            throw Error("workload script not found: " + workload_script->string());
        }
        spec.files.push_back({"/workload.sh", *workload_script, 0755});
        spec.init_script = init_script_running("/workload.sh", boot_modules);
    } else {
        spec.init_script = default_init_script(boot_modules);
    }
    std::vector<fs::path> modules = kernel_modules_beside(kernel_image);
    std::vector<std::string> names = module_names;
    names.insert(names.end(), boot_modules.begin(), boot_modules.end());
    for (const auto& name : names) {
        const fs::path module = kernel_module_named(kernel_image, name);
        if (std::find(modules.begin(), modules.end(), module) == modules.end()) {
            modules.push_back(module);
        }
    }
    for (const auto& module : modules) {
        spec.files.push_back({"/lib/modules/" + module.filename().string(), module, 0644});
    }
    for (const auto& source : programs) {
        const GuestProgram program = build_guest_program(arch, source, cache_dir());
        spec.files.push_back({"/bin/" + program.name, program.binary, 0755});
    }
    return build_initramfs(spec, cache_dir());
}

} // namespace bb
