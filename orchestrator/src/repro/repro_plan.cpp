#include "repro/repro_plan.h"

#include "artifacts/kernel_build.h"
#include "guest/nested_init_script.h"
#include "kernel/build_key.h"
#include "kernel/kernel_builder.h"
#include "kernel/patch_change.h"
#include "kernel/patch_series.h"
#include "store/patch_labels.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bb {

namespace fs = std::filesystem;

namespace {

// The patches as the build applied them (0001.patch, ...), under the names the build recorded
// (a fresh machine's builds always keep them: naming them by file alone printed "0001.patch").
std::vector<ReproPatch> patches_from_directory(const fs::path& dir,
                                               const std::vector<std::string>& recorded_names) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<ReproPatch> patches;
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string name = files.size() == recorded_names.size()
                                     ? recorded_names[i]
                                     : files[i].filename().string();
        patches.push_back({name, read_file(files[i]), ""});
    }
    return patches;
}

// A build from before its patches were kept: the project's own patch of that name.
ReproPatch patch_from_project(const std::string& display_name) {
    const std::string file_name = display_name.substr(0, display_name.find(' '));
    const fs::path root = fs::path(BOOTBENCH_SOURCE_DIR) / "kernels" / "patches";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.path().filename() == file_name) {
            const auto series = load_patch_series({entry.path()});
            for (const auto& patch : series) {
                if (patch.display_name() == display_name) {
                    return {display_name, patch.bytes, ""};
                }
            }
        }
    }
    throw Error(fmt::format("patch {}: the build's directory does not keep its patches (built "
                            "before bootbench kept them) and {} has no file of that name",
                            display_name, root.string()));
}

std::vector<ReproPatch> recipe_patches(const BuildRow& row) {
    const fs::path kept = fs::path(row.artifact_dir) / k_applied_patches_dir;
    const std::vector<std::string> names = require_patch_labels(row.patches_json, row.key);
    std::vector<ReproPatch> patches;
    if (fs::is_directory(kept)) {
        patches = patches_from_directory(kept, names);
    } else {
        for (const auto& name : names) {
            patches.push_back(patch_from_project(name));
        }
    }
    const auto expected = explained_patch_hashes(row.explain);
    if (expected.size() != patches.size()) {
        throw Error(fmt::format("build {}: {} patch(es) found, its key was made from {}",
                                row.key.substr(0, 12), patches.size(), expected.size()));
    }
    for (size_t i = 0; i < patches.size(); ++i) {
        patches[i].sha256 = sha256_hex(patches[i].bytes);
        // Keys hash the patch's tree change (kernel/patch_change.h); builds keyed before that
        // hashed its bytes.
        const std::string change_sha256 = sha256_hex(patch_tree_change(patches[i].bytes));
        if (change_sha256.rfind(expected[i], 0) != 0 &&
            patches[i].sha256.rfind(expected[i], 0) != 0) {
            throw Error(fmt::format("patch {}/{} {}: its change has sha256 {}, not the one "
                                    "build {} was made from ({}...)",
                                    i + 1, patches.size(), patches[i].name,
                                    change_sha256.substr(0, 16), row.key.substr(0, 12),
                                    expected[i]));
        }
    }
    return patches;
}

constexpr const char* k_debian_source = "debian-package:";

std::optional<KernelRecipe> kernel_recipe(const BuildRow& row, std::string& why_not) {
    if (row.source_identity.rfind(k_debian_source, 0) != 0) {
        why_not = "its source is " + row.source_identity +
                  ", not a Debian source package a script can fetch";
        return std::nullopt;
    }
    const std::string package_version = row.source_identity.substr(std::strlen(k_debian_source));
    const auto equals = package_version.find('=');
    KernelRecipe recipe;
    recipe.build_key = row.key;
    recipe.arch = row.arch;
    const auto parsed = arch_from_string(row.arch);
    if (!parsed) {
        throw Error("build " + row.key.substr(0, 12) + " has an unknown arch '" + row.arch + "'");
    }
    const Arch arch = *parsed;
    recipe.make_arch = to_string(arch);
    recipe.cross_prefix = cross_prefix(arch);
    recipe.source_package = package_version.substr(0, equals);
    recipe.source_version = package_version.substr(equals + 1);
    const fs::path pristine =
        cache_dir() / "sources" / (recipe.source_package + "_" + recipe.source_version);
    if (fs::is_directory(pristine)) {
        recipe.pristine_tree = pristine.string();
    }
    if (!fs::is_directory(row.artifact_dir)) {
        // A shipped database (docs/data/) carries the build's row, not its directory.
        why_not = fmt::format(
            "build {}'s directory {} is not on this machine, and its .config lives there (a "
            "shipped or exported database carries the build's row only); build the same kernel "
            "here first — `bootbench build FILE` with the experiment's file gives the same key "
            "for the same source ({}; pin it as kernel.source: debian:{} while apt serves it), "
            "patches, fragments and HZ",
            row.key.substr(0, 12), row.artifact_dir, row.source_identity, package_version);
        return std::nullopt;
    }
    recipe.toolchain = row.toolchain;
    recipe.patches = recipe_patches(row);
    recipe.config = read_file(fs::path(row.artifact_dir) / "config");
    recipe.config_sha256 = row.config_sha256;
    if (sha256_hex(recipe.config) != row.config_sha256) {
        throw Error(fmt::format("input .config: {}/config has sha256 {}, build {} recorded {}",
                                row.artifact_dir, sha256_hex(recipe.config), row.key.substr(0, 12),
                                row.config_sha256));
    }
    recipe.target = row.target;
    recipe.image_path = kernel_image_path(arch).string();
    recipe.ccache_dir = (cache_dir() / "ccache").string();
    recipe.make_env = reproducible_build_env();
    return recipe;
}

// The firmware file qemu read: the argv's -bios path (firmware_name is the name as the user
// gave it, `QEMU_EFI.fd`, which bootbench resolved).
std::optional<std::string> firmware_as_booted(const BootRecord& boot) {
    const auto bios = std::find(boot.argv.begin(), boot.argv.end(), "-bios");
    if (bios != boot.argv.end() && bios + 1 != boot.argv.end()) {
        return *(bios + 1);
    }
    return boot.firmware_name;
}

// Before schema 10 the markers were not stored: the defaults, and a nested boot's L2 start
// when its console shows one (nested runs timed from there).
std::string timing_marker(const StoredBoot& stored) {
    return stored.markers_recorded ? stored.record.timing_marker : "boot-done";
}

std::string start_marker(const StoredBoot& stored) {
    if (stored.markers_recorded) {
        return stored.record.start_marker;
    }
    const bool l2_started =
        stored.record.console_log.find("BOOTBENCH-MARKER " + std::string(k_l2_start_marker) +
                                       " ") != std::string::npos;
    return l2_started ? std::string(k_l2_start_marker) : "";
}

void add_input(ReproPlan& plan, std::string role, const std::optional<std::string>& path,
               const std::optional<std::string>& sha256) {
    if (path && sha256) {
        plan.inputs.push_back({std::move(role), *path, *sha256});
    }
}
} // namespace

ReproPlan make_repro_plan(Database& db, long long boot_id) {
    auto stored = find_stored_boot(db, boot_id);
    if (!stored) {
        throw Error(fmt::format("no boot {} in {}", boot_id, db.path().string()));
    }
    const BootRecord& boot = stored->record;
    if (boot.launcher != "qemu") {
        throw Error(fmt::format("boot {} ran through {}: repro replays a qemu command line, and "
                                "a libvirt domain's is libvirt's",
                                boot_id, boot.launcher));
    }
    ReproPlan plan;
    plan.boot = *stored;
    plan.database = db.path().string();
    plan.marker = timing_marker(*stored);
    plan.start_marker = start_marker(*stored);
    add_input(plan, "kernel", boot.kernel_path, boot.kernel_sha256);
    add_input(plan, "initramfs", boot.initrd_path, boot.initrd_sha256);
    add_input(plan, "firmware", firmware_as_booted(boot), boot.firmware_sha256);
    if (!boot.build_key) {
        plan.no_recipe_reason = "the kernel was given as a file (--kernel), not built by bootbench";
    } else if (bool from_cache = false;
               const auto row = lookup_build(db, *boot.build_key, from_cache)) {
        plan.kernel = kernel_recipe(*row, plan.no_recipe_reason);
    } else {
        plan.no_recipe_reason = "build " + boot.build_key->substr(0, 12) +
                                " is in neither this database nor the cache (removed by gc?)";
    }
    return plan;
}

} // namespace bb
