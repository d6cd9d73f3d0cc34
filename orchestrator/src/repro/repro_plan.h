#pragma once
#include "store/database.h"
#include "store/stored_boot.h"

#include <optional>
#include <string>
#include <vector>

namespace bb {

// One file the boot read, with the hash it had then.
struct ReproInput {
    std::string role; // "kernel", "initramfs", "firmware"
    std::string path;
    std::string sha256;
};

struct ReproPatch {
    std::string name;
    std::string bytes;
    std::string sha256;
};

// How the boot's kernel was built, complete enough to build it again without bootbench:
// Debian's source package, the toolchain's identity, each patch and the final .config.
struct KernelRecipe {
    std::string build_key;
    std::string arch;         // bootbench's name: arm64, x86_64
    std::string make_arch;    // make's ARCH=
    std::string cross_prefix; // CROSS_COMPILE=
    std::string source_package;
    std::string source_version;
    std::string pristine_tree; // bootbench's unpacked copy of that package ("" if none here)
    std::string toolchain;     // "<gcc --version> / <ld --version>", first lines
    std::vector<ReproPatch> patches;
    std::string config;
    std::string config_sha256;
    std::string target;     // Image, bzImage
    std::string image_path; // relative to the O= directory
    std::string ccache_dir; // bootbench's ccache, so a rebuild here reuses its objects
    std::vector<std::pair<std::string, std::string>> make_env;
};

struct ReproPlan {
    StoredBoot boot;
    std::string database;
    std::string marker;       // boot_seconds ends at this marker's line
    std::string start_marker; // ... and starts at this one's ("": at qemu's spawn)
    std::vector<ReproInput> inputs;
    std::optional<KernelRecipe> kernel;
    std::string no_recipe_reason; // why `kernel` is unset
};

// Everything a replay of BOOT_ID needs, each input checked now against its recorded hash where
// bootbench holds it (patches, .config). Throws Error naming the boot or the input that cannot be
// replayed (unknown id, a libvirt boot, a patch whose bytes are not the ones built).
ReproPlan make_repro_plan(Database& db, long long boot_id);

} // namespace bb
