#include "runner/guest_image.h"

#include "guest/busybox.h"
#include "guest/init_script.h"
#include "util/error.h"
#include "util/paths.h"

namespace bb {

namespace fs = std::filesystem;

Initramfs prepare_guest_image(Arch arch, const std::optional<fs::path>& workload_script) {
    InitramfsSpec spec;
    spec.arch = arch;
    spec.busybox = find_busybox(arch);
    if (workload_script) {
        if (!fs::exists(*workload_script)) {
            throw Error("workload script not found: " + workload_script->string());
        }
        spec.files.push_back({"/workload.sh", *workload_script, 0755});
        spec.init_script = init_script_running("/workload.sh");
    } else {
        spec.init_script = default_init_script();
    }
    return build_initramfs(spec, cache_dir());
}

} // namespace bb
