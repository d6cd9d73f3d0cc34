#include "artifacts/varstore_template.h"

#include "artifacts/guest_image.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/run_command.h"
#include "vm/qemu_spec.h"

#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
constexpr const char* k_template_format = "varstore-v1";
constexpr const char* k_full_line = "BOOTBENCH-VARSTORE full";
// qemu's virt board wants a backing file the size of its 64 MiB flash bank.
constexpr std::uintmax_t k_flash_bytes = 64ull << 20;
// The fill writes ~60 variables under TCG: about half a minute here, never ten.
constexpr std::chrono::seconds k_fill_timeout{600};

// The guest image of the fill boot: efivar_fill and the workload that runs it, efivarfs as a
// module when the kernel has it as one (a kernel with it built in needs none).
Initramfs fill_image(const fs::path& kernel) {
    const fs::path source = BOOTBENCH_SOURCE_DIR;
    std::vector<std::string> modules;
    try {
        kernel_module_named(kernel, "efivarfs");
        modules.emplace_back("efivarfs");
    } catch (const Error&) {
        // Built in, or absent: the workload says which when it cannot mount efivarfs.
    }
    return prepare_guest_image(Arch::Arm64,
                               source / "guest-images" / "workloads" / "efivar-fill.sh", kernel,
                               {source / "guest-images" / "programs" / "efivar_fill.c"}, modules);
}

std::string template_key(const VarstoreRequest& request, const Initramfs& image) {
    Sha256 key;
    key.tagged("format", k_template_format);
    key.tagged("firmware", sha256_file(request.firmware));
    key.tagged("kernel", sha256_file(request.l2_kernel));
    key.tagged("image", image.content_key);
    key.tagged("live", std::to_string(request.live_variables));
    key.tagged("memory", std::to_string(request.memory_mb));
    key.tagged("qemu", version_of(qemu_binary(Arch::Arm64)));
    return key.hex();
}

std::string last_lines(const std::string& text, size_t count) {
    size_t start = text.size();
    for (size_t found = 0; start > 0 && found <= count;) {
        if (text[--start] == '\n') {
            ++found;
        }
    }
    return text.substr(start);
}

// The store's bytes up to its last non-zero one: the rest of the bank is zeros in every copy.
std::string nonzero_head(const fs::path& store) {
    std::string bytes = read_file(store);
    const size_t end = bytes.find_last_not_of('\0');
    bytes.resize(end == std::string::npos ? 0 : end + 1);
    return bytes;
}

std::string fill_store(const VarstoreRequest& request, const Initramfs& image,
                       const fs::path& store) {
    { std::ofstream create(store, std::ios::binary | std::ios::trunc); }
    fs::resize_file(store, k_flash_bytes);
    QemuSpec spec;
    spec.arch = Arch::Arm64;
    spec.smp = 1;
    spec.memory_mb = request.memory_mb;
    spec.firmware = request.firmware;
    spec.kernel = request.l2_kernel;
    spec.initrd = image.path;
    spec.cmdline = fmt::format("quiet efivar_fill.live={}", request.live_variables);
    spec.extra_args = {"-drive", "if=pflash,format=raw,unit=1,file=" + store.string()};
    const CommandResult boot = run_command(qemu_argv(spec), k_fill_timeout);
    const size_t line = boot.output.find(k_full_line);
    if (line == std::string::npos) {
        throw RuntimeFailure(fmt::format(
            "the variable-store fill boot did not fill the store (qemu exit {}); its last "
            "lines:\n{}",
            boot.exit_code, last_lines(boot.output, 15)));
    }
    return boot.output.substr(line, boot.output.find('\n', line) - line);
}
} // namespace

VarstoreTemplate prepare_full_varstore(const VarstoreRequest& request,
                                       const std::function<void(const std::string&)>& note) {
    const Initramfs image = fill_image(request.l2_kernel);
    VarstoreTemplate made;
    made.key = template_key(request, image);
    const fs::path dir = cache_dir() / "varstores";
    made.path = dir / (made.key.substr(0, 16) + ".fd");
    const fs::path report = dir / (made.key.substr(0, 16) + ".txt");
    if (fs::exists(made.path) && fs::exists(report)) {
        made.cache_hit = true;
        made.fill_report = read_file(report);
        return made;
    }
    fs::create_directories(dir);
    note(fmt::format("filling a UEFI variable store ({} live variables) under TCG, once",
                     request.live_variables));
    const fs::path store = dir / fmt::format("fill-{}.fd", getpid());
    try {
        made.fill_report = fill_store(request, image, store);
        write_file_atomically(made.path, nonzero_head(store));
        write_file_atomically(report, made.fill_report);
    } catch (...) {
        fs::remove(store);
        throw;
    }
    fs::remove(store);
    return made;
}

} // namespace bb
