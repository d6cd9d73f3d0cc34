#include "kernel/kernel_builder.h"

#include "kernel/build_dir_seed.h"
#include "kernel/build_key.h"
#include "kernel/patch_change.h"
#include "kernel/patch_series.h"
#include "kernel/tree_manifest.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/file_lock.h"
#include "util/hash.h"
#include "util/monotonic_clock.h"
#include "util/paths.h"
#include "util/run_command.h"
#include "util/streaming_command.h"
#include "util/trim.h"
#include "util/trusted_directory.h"

#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
// Marks a complete artifact directory (written last, before the rename that publishes it).
constexpr const char* k_stamp = ".bootbench-complete";
// Trees made before manifests carried this stamp; it is dropped from a fresh copy.
constexpr const char* k_legacy_stamp = ".bootbench-complete";
// Beside each private tree: its manifest digest (kernel/tree_manifest.h).
constexpr const char* k_manifest = "src.manifest";
constexpr const char* k_tree_format = "tree-v1";
constexpr const char* k_config_format = "config-v1";
constexpr const char* k_build_format = "build-v1";
// Less free space than this after a failed make: the disk filled up.
constexpr std::uintmax_t k_disk_full_bytes = 16ull << 20;

std::string tail_of(const fs::path& log, size_t lines) {
    std::ifstream in(log);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);) {
        all.push_back(line);
    }
    std::string out;
    for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) {
        out += "  " + all[i] + "\n";
    }
    return out;
}

// A full disk shows up as an error somewhere in a long log; said plainly when `directory`'s file
// system is (nearly) full: ": no space left on device: …", else "".
std::string disk_full_hint(const fs::path& directory) {
    std::error_code error;
    const fs::space_info space = fs::space(directory, error);
    if (error || space.available >= k_disk_full_bytes) {
        return "";
    }
    return fmt::format(": no space left on device: {} has {} KiB free (free some space or point "
                       "BOOTBENCH_CACHE at a larger file system)",
                       directory.string(), space.available / 1024);
}

// cp says the same thing for each of thousands of files on a full disk.
std::string first_lines(const std::string& text, size_t count) {
    size_t end = 0;
    for (size_t line = 0; line < count; ++line) {
        end = text.find('\n', end);
        if (end == std::string::npos) {
            return text;
        }
        ++end;
    }
    return end >= text.size() ? text : text.substr(0, end) + "…";
}

bool same_file_system(const fs::path& a, const fs::path& b) {
    struct stat sa {};
    struct stat sb {};
    return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev;
}
} // namespace

std::string kernel_image_target(Arch arch) {
    return std::string(profile(arch).image_target);
}

fs::path kernel_image_path(Arch arch) {
    return profile(arch).image_path;
}

struct KernelBuilder::Prepared {
    Arch arch = Arch::Arm64;
    ConfigRequest config;
    SourceTree source;
    std::vector<Patch> patches;
    fs::path workdir;   // $CACHE/trees/<tree key>
    fs::path tree;      // private patched copy
    fs::path build_dir; // O=
    fs::path cached_config;
    bool base_is_file = false;
    KconfigValues wanted;
    bool keys_known = false; // the final .config is known, so is the build key
    bool tree_ready = false; // verified against its manifest in this process
    std::string compiler;
    std::string toolchain;
    std::string final_config;
    std::optional<BuildDirSeed> seed; // the unpatched build a patched variant can start from
    std::string config_key_explain;
    KeyBuilder build_key{k_build_format};
};

KernelBuilder::KernelBuilder(fs::path cache, Progress progress)
    : m_cache(std::move(cache)), m_progress(std::move(progress)) {}

void KernelBuilder::run_make(const Prepared& prepared, const std::vector<std::string>& targets,
                             const fs::path& log, int jobs) {
    StreamingCommand make;
    make.argv = {"make",
                 "-C",
                 prepared.tree.string(),
                 "O=" + prepared.build_dir.string(),
                 "ARCH=" + std::string(to_string(prepared.arch) == "x86_64" ? "x86_64" : "arm64"),
                 "CROSS_COMPILE=" + cross_prefix(prepared.arch),
                 "CC=" + prepared.compiler,
                 "-j" + std::to_string(jobs)};
    make.argv.insert(make.argv.end(), targets.begin(), targets.end());
    // ccache shares objects across variants: paths are rewritten relative to the build
    // directory, and every tree/build pair has the same shape (<id>/src, <id>/build-<key>).
    make.env = {{"CCACHE_DIR", (m_cache / "ccache").string()},
                {"CCACHE_BASEDIR", (m_cache / "trees").string()},
                {"CCACHE_NOHASHDIR", "1"}};
    for (const auto& [name, value] : reproducible_build_env()) {
        make.env[name] = value;
    }
    std::ofstream out(log, std::ios::app);
    out << "$";
    for (const auto& arg : make.argv) {
        out << " " << arg;
    }
    out << "\n";
    int compiled = 0;
    const double start = monotonic_seconds();
    std::string last;
    const auto result = run_streaming(make, [&](std::string_view line) {
        out << line << "\n";
        if (line.rfind("  CC ", 0) == 0 || line.rfind("  AS ", 0) == 0 ||
            line.rfind("  LD ", 0) == 0 || line.rfind("  AR ", 0) == 0) {
            ++compiled;
            last = std::string(line.substr(2));
        }
        m_progress.status(fmt::format("make {}: {} steps, {:.0f} s, {}", fmt::join(targets, " "),
                                      compiled, monotonic_seconds() - start, last));
    });
    out.flush();
    if (result.interrupted) {
        throw Interrupted("build interrupted; nothing was stored");
    }
    if (result.exit_code != 0) {
        throw RuntimeFailure(fmt::format(
            "make {} failed (exit {}){}; last lines of {}:\n{}", fmt::join(targets, " "),
            result.exit_code, disk_full_hint(log.parent_path()), log.string(), tail_of(log, 25)));
    }
}

KernelBuilder::Prepared KernelBuilder::identify(const BuildRequest& request) {
    for (const char* sub : {"trees", "builds", "configs", "sources", "locks", "ccache"}) {
        require_trusted_path(m_cache, m_cache / sub, geteuid());
    }
    Prepared prepared;
    prepared.arch = request.arch;
    prepared.config = request.config;
    prepared.source = resolve_source(request.source, m_cache, m_progress.note);
    prepared.patches = load_patch_series(request.patches);

    // The private tree is shared by every build of the same series.
    KeyBuilder tree_key(k_tree_format);
    tree_key.add("source", prepared.source.identity);
    const std::string unpatched_tree_hex = tree_key.hex();
    for (const auto& patch : prepared.patches) {
        tree_key.add("patch", patch_tree_change(patch.bytes));
    }
    prepared.workdir = m_cache / "trees" / tree_key.hex().substr(0, 16);
    prepared.tree = prepared.workdir / "src";

    const std::string cc = cross_prefix(request.arch) + "gcc";
    if (find_program(cc).empty()) {
        throw RuntimeFailure(cc + " not found: install gcc-aarch64-linux-gnu (scripts/setup.sh)");
    }
    prepared.toolchain = version_of(cc) + " / " + version_of(cross_prefix(request.arch) + "ld");
    prepared.compiler = find_program("ccache").empty() ? cc : "ccache " + cc;

    prepared.base_is_file = request.config.base.find('/') != std::string::npos;
    prepared.wanted = requested_options(request.config);
    const KeyBuilder config_key = config_key_of(prepared, tree_key.hex());
    prepared.config_key_explain = config_key.explain();
    prepared.build_dir = prepared.workdir / ("build-" + config_key.hex().substr(0, 16));
    // Our own pristine trees are hard links of one unpacked source: a variant's unpatched files
    // are the seed's, times included. A user's tree is a copy (its times are the copy's).
    if (!prepared.patches.empty() && !prepared.source.copy_needed) {
        const fs::path unpatched = m_cache / "trees" / unpatched_tree_hex.substr(0, 16);
        prepared.seed = BuildDirSeed{
            unpatched / "src",
            unpatched /
                ("build-" + config_key_of(prepared, unpatched_tree_hex).hex().substr(0, 16))};
    }
    prepared.cached_config = m_cache / "configs" / (config_key.hex() + ".config");
    if (fs::exists(prepared.cached_config)) {
        finish_build_key(prepared, read_file(prepared.cached_config));
    }
    return prepared;
}

// The configuration is cached by everything that decides it.
KeyBuilder KernelBuilder::config_key_of(const Prepared& prepared, const std::string& tree_hex) {
    const ConfigRequest& config = prepared.config;
    KeyBuilder key(k_config_format);
    key.add("tree", tree_hex).add("arch", std::string(to_string(prepared.arch)));
    key.add("base", prepared.base_is_file ? read_file(config.base) : config.base);
    for (const auto& fragment : config.fragments) {
        key.add("fragment", read_file(fragment));
    }
    key.add("hz", config.hz ? std::to_string(*config.hz) : "");
    key.add("preempt", config.preempt.value_or(""));
    key.add("wanted", merge_into_config("", prepared.wanted));
    key.add("toolchain", prepared.toolchain);
    return key;
}

// Called with the build lock held: another bootbench may be copying or configuring the same
// tree otherwise, and the two would delete each other's work.
void KernelBuilder::ensure_tree(Prepared& prepared) {
    if (prepared.tree_ready) {
        return;
    }
    require_trusted_path(m_cache, prepared.tree, geteuid());
    require_trusted_path(m_cache, prepared.build_dir, geteuid());
    const fs::path manifest = prepared.workdir / k_manifest;
    if (fs::exists(prepared.tree) && fs::exists(manifest)) {
        if (tree_manifest_digest(prepared.tree) == trimmed(read_file(manifest))) {
            prepared.tree_ready = true;
            return;
        }
        m_progress.note(fmt::format("{} differs from the tree bootbench made (a file was changed, "
                                    "added or removed); making it again from the source",
                                    prepared.tree.string()));
    }
    make_tree(prepared);
    prepared.tree_ready = true;
}

void KernelBuilder::make_tree(const Prepared& prepared) {
    const fs::path temp = prepared.workdir / fmt::format("src.tmp.{}", getpid());
    fs::remove_all(temp);
    fs::remove(prepared.workdir / k_manifest);
    fs::create_directories(prepared.workdir);
    m_progress.status(fmt::format("copying {} into a private tree", prepared.source.root.string()));
    // Our own caches are immutable: hard links are enough (patch writes new files, so the links
    // break exactly where a patch changes something). A user's tree, or one on another file
    // system (no hard links there), is copied. The source's contents, never its path: `cp -a`
    // of a symlinked sources/ entry copied the link, so the "private" tree was the pristine one
    // and the stamp removed below was the source's own (every later build unpacked it again,
    // with new inodes, and seeded builds then took every file for a patched one).
    const fs::path source = fs::canonical(prepared.source.root);
    const bool link = !prepared.source.copy_needed && same_file_system(source, prepared.workdir);
    fs::create_directories(temp);
    const auto copied =
        run_command({"cp", link ? "-al" : "-a", (source / ".").string(), temp.string()},
                    std::chrono::seconds(3600));
    if (copied.exit_code != 0) {
        const std::string full = disk_full_hint(prepared.workdir); // before the space is freed
        fs::remove_all(temp);
        throw RuntimeFailure(fmt::format("copying the source tree into {} failed{}:\n{}",
                                         temp.string(), full, first_lines(copied.output, 5)));
    }
    fs::remove(temp / k_legacy_stamp);
    try {
        if (!prepared.patches.empty()) {
            m_progress.note(fmt::format("applying {} patch(es)", prepared.patches.size()));
        }
        apply_patch_series(temp, prepared.patches);
    } catch (...) {
        fs::remove_all(temp);
        throw;
    }
    fs::remove_all(prepared.tree);
    fs::rename(temp, prepared.tree);
    // Digested after the rename: the manifest holds paths relative to the tree, not its name.
    write_file_atomically(prepared.workdir / k_manifest,
                          tree_manifest_digest(prepared.tree) + "\n");
}

// Called with the build lock held (it may run make in the tree).
void KernelBuilder::ensure_config(Prepared& prepared) {
    if (fs::exists(prepared.cached_config)) {
        // Another bootbench may have configured it while we waited for the lock.
        finish_build_key(prepared, read_file(prepared.cached_config));
        return;
    }
    ensure_tree(prepared);
    fs::create_directories(prepared.build_dir);
    const fs::path log = prepared.build_dir / "config.log";
    fs::remove(log);
    const ConfigRequest& config = prepared.config;
    if (prepared.base_is_file) {
        fs::copy_file(config.base, prepared.build_dir / ".config",
                      fs::copy_options::overwrite_existing);
        run_make(prepared, {"olddefconfig"}, log, 1);
    } else {
        run_make(prepared, {config.base}, log, 1);
    }
    const fs::path dot_config = prepared.build_dir / ".config";
    write_file_atomically(dot_config, merge_into_config(read_file(dot_config), prepared.wanted));
    run_make(prepared, {"olddefconfig"}, log, 1);
    const std::string final_config = read_file(dot_config);
    const auto mismatches =
        verify_config(prepared.wanted, parse_kconfig(final_config, dot_config.string()));
    if (!mismatches.empty()) {
        std::string list;
        for (const auto& m : mismatches) {
            list += fmt::format("\n  {}: wanted {}, got {}", m.option, m.wanted, m.got);
        }
        throw Error(fmt::format("{} requested option(s) did not survive olddefconfig (a "
                                "dependency is missing or the name is wrong):{}",
                                mismatches.size(), list));
    }
    write_file_atomically(prepared.cached_config, final_config);
    finish_build_key(prepared, final_config);
}

// The build key: exactly what the kernel image depends on.
void KernelBuilder::finish_build_key(Prepared& prepared, std::string final_config) {
    prepared.final_config = std::move(final_config);
    prepared.build_key = KeyBuilder(k_build_format);
    prepared.build_key.add("source", prepared.source.identity);
    for (const auto& patch : prepared.patches) {
        prepared.build_key.add("patch", patch_tree_change(patch.bytes));
    }
    if (!prepared.patches.empty()) {
        // Patched images built by bootbench before this input existed may be the unpatched
        // image (a seeded build whose patched tree was older than the seed's objects, so make
        // recompiled nothing; build_dir_seed.h): this input retires every one of them.
        prepared.build_key.add("patched-build", "seeded-v2");
    }
    prepared.build_key.add("config", prepared.final_config)
        .add("toolchain", prepared.toolchain)
        .add("arch", std::string(to_string(prepared.arch)))
        .add("target", kernel_image_target(prepared.arch));
    prepared.keys_known = true;
}

// A patched variant whose image is its unpatched seed's, byte for byte, is either a build in
// which make recompiled nothing (every A/B of it an A/A comparison without a word: refused;
// build_dir_seed.h tells how it happened once) or a series that changes no code this
// configuration builds (said, and kept: a bisected series may have such steps).
void KernelBuilder::refuse_unpatched_image(const Prepared& prepared, const fs::path& image,
                                           fs::file_time_type make_started) {
    if (sha256_file(prepared.build_dir / image) != sha256_file(prepared.seed->build_dir / image)) {
        return;
    }
    const auto patched = files_differing_from(prepared.tree, prepared.seed->tree);
    const PatchedObjects objects =
        patched_objects(prepared.build_dir, prepared.tree, patched, make_started);
    const auto names = [](const std::vector<fs::path>& paths) {
        std::vector<std::string> strings;
        for (const auto& path : paths) {
            strings.push_back(path.string());
        }
        return fmt::format("{}", fmt::join(strings, ", "));
    };
    if (objects.stale.empty()) {
        m_progress.note(fmt::format(
            "the patched image is byte-identical to the unpatched one: make rebuilt the {} "
            "object(s) that use the patched files ({}) and none of them changed the image",
            objects.rewritten.size(), names(patched)));
        return;
    }
    throw RuntimeFailure(fmt::format(
        "the patched build in {} produced exactly the unpatched image of {}: make did not "
        "recompile {} after the patches changed what it is built from. Remove {} and build "
        "again",
        prepared.build_dir.string(), prepared.seed->build_dir.string(), names(objects.stale),
        prepared.build_dir.string()));
}

FileLock KernelBuilder::lock_builds() {
    // One kernel build at a time per cache: two makes on a small host only slow each other
    // down, and a second bootbench asking for the same key finds it built when its turn comes.
    return FileLock(m_cache / "locks" / "kernel-build.lock", "another kernel build",
                    FileLock::Mode::WaitIfHeld,
                    [this](const std::string& message) { m_progress.note(message); });
}

BuildResult KernelBuilder::describe(const Prepared& prepared) const {
    BuildResult result;
    result.key = prepared.build_key.hex();
    result.explain = "config key inputs:\n" + prepared.config_key_explain + "build key inputs:\n" +
                     prepared.build_key.explain();
    result.artifact_dir = m_cache / "builds" / result.key;
    result.image = result.artifact_dir / kernel_image_path(prepared.arch).filename();
    result.source_identity = prepared.source.identity;
    result.config_sha256 = sha256_hex(prepared.final_config);
    result.toolchain = prepared.toolchain;
    result.target = kernel_image_target(prepared.arch);
    for (const auto& patch : prepared.patches) {
        result.patch_names.push_back(patch.display_name());
    }
    result.cache_hit = is_complete_build(result.artifact_dir);
    return result;
}

BuildResult KernelBuilder::explain(const BuildRequest& request) {
    Prepared prepared = identify(request);
    if (!prepared.keys_known) {
        const FileLock build_lock = lock_builds();
        ensure_config(prepared);
    }
    return describe(prepared);
}

// Installs the modules into a scratch root and keeps them flat in `<artifacts>/modules/`, where
// the guest image picks them up for busybox insmod (no depmod, no version directory needed).
void KernelBuilder::collect_modules(const Prepared& prepared, const fs::path& artifacts,
                                    const fs::path& log) {
    const fs::path root = artifacts / "modules-root";
    run_make(prepared,
             {"modules_install", "INSTALL_MOD_PATH=" + root.string(), "INSTALL_MOD_STRIP=1",
              "DEPMOD=true"},
             log, 1);
    const fs::path flat = artifacts / "modules";
    fs::create_directories(flat);
    if (fs::exists(root)) {
        for (const auto& entry : fs::recursive_directory_iterator(root)) {
            if (entry.is_regular_file() && entry.path().extension() == ".ko") {
                fs::copy_file(entry.path(), flat / entry.path().filename(),
                              fs::copy_options::overwrite_existing);
            }
        }
    }
    fs::remove_all(root);
}

BuildResult KernelBuilder::build(const BuildRequest& request) {
    const double start = monotonic_seconds();
    Prepared prepared = identify(request);
    // A hit with a cached config needs neither the lock nor the tree (gc may have removed it).
    if (prepared.keys_known) {
        BuildResult result = describe(prepared);
        if (result.cache_hit) {
            result.seconds = monotonic_seconds() - start;
            return result;
        }
    }
    // Nothing touches the tree or the O= directory before this lock is held.
    const FileLock build_lock = lock_builds();
    ensure_config(prepared);
    BuildResult result = describe(prepared);
    if (result.cache_hit) { // built by the bootbench we waited for
        result.seconds = monotonic_seconds() - start;
        return result;
    }
    ensure_tree(prepared);
    const bool seeded =
        prepared.seed && seed_build_dir(*prepared.seed, prepared.tree, prepared.build_dir,
                                        kernel_image_path(request.arch), prepared.final_config);
    if (seeded) {
        m_progress.note(fmt::format("starting from the unpatched build in {} (make recompiles "
                                    "what the patches change)",
                                    prepared.seed->build_dir.string()));
    }
    if (prepared.seed && fs::exists(prepared.seed->tree)) {
        make_patched_files_newer(prepared.tree, prepared.seed->tree);
        // The builder changed its own tree's times (under the build lock): the manifest follows,
        // or the next build would take the tree for tampered with and make it again.
        write_file_atomically(prepared.workdir / k_manifest,
                              tree_manifest_digest(prepared.tree) + "\n");
    }
    // The O= directory may hold an older .config (same config key, so same content) or none.
    // Rewritten only when it differs: a newer .config makes kbuild run syncconfig again.
    fs::create_directories(prepared.build_dir);
    const fs::path dot_config = prepared.build_dir / ".config";
    if (!fs::exists(dot_config) || read_file(dot_config) != prepared.final_config) {
        write_file_atomically(dot_config, prepared.final_config);
    }
    const fs::path log = prepared.build_dir / "build.log";
    fs::remove(log);
    const int jobs =
        request.jobs > 0 ? request.jobs : static_cast<int>(std::thread::hardware_concurrency());
    m_progress.note(fmt::format("building {} {} in {} ({} jobs)", to_string(request.arch),
                                result.target, prepared.build_dir.string(), jobs));
    const auto final_values = parse_kconfig(prepared.final_config, ".config");
    const auto modules = final_values.find("CONFIG_MODULES");
    const bool modular = modules != final_values.end() && modules->second == "y";
    const auto make_started = filesystem_now(prepared.build_dir);
    run_make(prepared,
             modular ? std::vector<std::string>{result.target, "modules"}
                     : std::vector<std::string>{result.target},
             log, jobs);
    if (prepared.seed && fs::exists(prepared.seed->build_dir / kernel_image_path(request.arch))) {
        refuse_unpatched_image(prepared, kernel_image_path(request.arch), make_started);
    }

    const fs::path temp = m_cache / "builds" / fmt::format("{}.tmp.{}", result.key, getpid());
    fs::remove_all(temp);
    fs::create_directories(temp);
    fs::copy_file(prepared.build_dir / kernel_image_path(request.arch),
                  temp / kernel_image_path(request.arch).filename());
    fs::copy_file(prepared.build_dir / ".config", temp / "config");
    fs::copy_file(prepared.build_dir / "System.map", temp / "System.map");
    if (modular) {
        collect_modules(prepared, temp, log);
    }
    fs::copy_file(log, temp / "build.log");
    std::ofstream(temp / "explain.txt") << result.explain;
    for (size_t i = 0; i < prepared.patches.size(); ++i) {
        fs::create_directories(temp / k_applied_patches_dir);
        std::ofstream(temp / k_applied_patches_dir / fmt::format("{:04}.patch", i + 1),
                      std::ios::binary)
            << prepared.patches[i].bytes;
    }
    std::ofstream(temp / k_build_dir_record)
        << prepared.build_dir.lexically_relative(m_cache).string() << "\n";
    std::ofstream(temp / k_stamp) << result.key << "\n";
    fs::remove_all(result.artifact_dir);
    fs::rename(temp, result.artifact_dir);
    result.seconds = monotonic_seconds() - start;
    return result;
}

std::vector<std::pair<std::string, std::string>> reproducible_build_env() {
    return {{"KBUILD_BUILD_TIMESTAMP", "1970-01-01"},
            {"KBUILD_BUILD_USER", "bootbench"},
            {"KBUILD_BUILD_HOST", "bootbench"},
            {"KBUILD_BUILD_VERSION", "1"}};
}

bool is_complete_build(const fs::path& artifact_dir) {
    return fs::exists(artifact_dir / k_stamp);
}

} // namespace bb
