#pragma once
#include "kernel/kconfig.h"
#include "kernel/kernel_source.h"
#include "util/arch.h"
#include "util/file_lock.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bb {

class KeyBuilder;

struct BuildRequest {
    Arch arch = Arch::Arm64;
    SourceSpec source;
    std::vector<std::filesystem::path> patches;
    ConfigRequest config;
    int jobs = 0; // 0: one per host CPU
};

struct BuildResult {
    std::string key;
    std::filesystem::path artifact_dir;
    std::filesystem::path image;
    bool cache_hit = false;
    double seconds = 0;
    std::string source_identity;
    std::string config_sha256;
    std::string toolchain;
    std::string target;
    std::string explain; // what the config key and the build key were made of
    std::vector<std::string> patch_names;
};

// The kernel a user asked for, built exactly once: source → private patched tree → config
// (base + fragments + hz + preemption, olddefconfig, verified) → make in an O= directory with
// ccache → artifacts stored under the build key with an atomic rename. A cache hit runs no make.
class KernelBuilder {
  public:
    KernelBuilder(std::filesystem::path cache, Progress progress);

    BuildResult build(const BuildRequest& request);
    // Computes the keys (running the config step if its result is not cached) without building.
    BuildResult explain(const BuildRequest& request);

  private:
    struct Prepared;
    // Everything up to the keys that needs neither the lock nor the tree.
    Prepared identify(const BuildRequest& request);
    // These three need the build lock held.
    void ensure_tree(Prepared& prepared);
    void make_tree(const Prepared& prepared);
    void ensure_config(Prepared& prepared);
    static void finish_build_key(Prepared& prepared, std::string final_config);
    void refuse_unpatched_image(const Prepared& prepared, const std::filesystem::path& image,
                                std::filesystem::file_time_type make_started);
    static KeyBuilder config_key_of(const Prepared& prepared, const std::string& tree_hex);
    FileLock lock_builds();
    BuildResult describe(const Prepared& prepared) const;
    void collect_modules(const Prepared& prepared, const std::filesystem::path& artifacts,
                         const std::filesystem::path& log);
    void run_make(const Prepared& prepared, const std::vector<std::string>& targets,
                  const std::filesystem::path& log, int jobs);

    std::filesystem::path m_cache;
    Progress m_progress;
};

// Inside each artifact directory: the O= directory the build came from, relative to the cache
// (trees/<tree key>/build-<config key>), so `gc` can remove it with the build.
inline constexpr const char* k_build_dir_record = "build-dir";
// Beside them, the patches exactly as applied (one file per message, in order: 0001.patch, ...),
// so the build can be redone from its own directory (`bootbench repro`).
inline constexpr const char* k_applied_patches_dir = "patches";

// True when `artifact_dir` holds a finished build (its completion stamp is written last, before
// the rename that publishes the directory).
bool is_complete_build(const std::filesystem::path& artifact_dir);

// make's environment for every kernel build: a fixed timestamp, user, host and version, so an
// image depends on its inputs only (a rebuild elsewhere can be bit-identical).
std::vector<std::pair<std::string, std::string>> reproducible_build_env();

std::string kernel_image_target(Arch arch);
std::filesystem::path kernel_image_path(Arch arch); // relative to the O= directory

} // namespace bb
