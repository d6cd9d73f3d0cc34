#include "artifacts/kernel_build.h"

#include "artifacts/build_manifest.h"
#include "store/patch_labels.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <vector>

namespace bb {

namespace fs = std::filesystem;

fs::path resolve_fragment(const std::string& name_or_path) {
    if (name_or_path.find('/') != std::string::npos || fs::exists(name_or_path)) {
        if (!fs::exists(name_or_path)) {
            throw Error("config fragment not found: " + name_or_path);
        }
        return fs::absolute(name_or_path);
    }
    const fs::path dir = fs::path(BOOTBENCH_SOURCE_DIR) / "kernels" / "fragments";
    const fs::path path = dir / (name_or_path + ".config");
    if (!fs::exists(path)) {
        std::vector<std::string> names; // sorted: readdir order differs between machines
        for (const auto& entry : fs::directory_iterator(dir)) {
            names.push_back(entry.path().stem().string());
        }
        std::sort(names.begin(), names.end());
        std::string known;
        for (const auto& name : names) {
            known += (known.empty() ? "" : ", ") + name;
        }
        throw Error("unknown config fragment '" + name_or_path + "' (known: " + known + ")");
    }
    return path;
}

std::string default_fragment(Arch arch) {
    return std::string(profile(arch).base_fragment);
}

namespace {
BuildRow row_of(const BuildRequest& request, const BuildResult& result) {
    BuildRow row;
    row.key = result.key;
    row.arch = std::string(to_string(request.arch));
    row.source_identity = result.source_identity;
    row.patches_json = patch_labels_json(result.patch_names);
    row.base_config = request.config.base;
    nlohmann::json fragments = nlohmann::json::array();
    for (const auto& fragment : request.config.fragments) {
        fragments.push_back(fragment.filename().string());
    }
    row.fragments_json = fragments.dump();
    row.hz = request.config.hz;
    row.preempt = request.config.preempt;
    row.config_sha256 = result.config_sha256;
    row.toolchain = result.toolchain;
    row.target = result.target;
    row.artifact_dir = result.artifact_dir.string();
    row.image_sha256 = sha256_file(result.image);
    row.image_bytes = static_cast<long long>(fs::file_size(result.image));
    row.build_seconds = result.seconds;
    row.explain = result.explain;
    return row;
}

// Builds made before build.json existed get one the first time a database that knows them
// uses them, so any other database can import them from then on.
// A row whose directory is not here (a shipped database's, or one gc removed) has nothing to
// describe: the manifest is written beside artifacts that exist.
void ensure_manifest(const BuildRow& row) {
    const fs::path dir = row.artifact_dir;
    if (fs::is_directory(dir) && !fs::exists(dir / k_build_manifest)) {
        write_build_manifest(row);
    }
}

} // namespace

std::vector<fs::path> cached_build_dirs(const std::string& key_prefix) {
    std::vector<fs::path> found;
    const fs::path builds = cache_dir() / "builds";
    if (!fs::is_directory(builds)) {
        return found;
    }
    for (const auto& entry : fs::directory_iterator(builds)) {
        const std::string name = entry.path().filename().string();
        // KEY.tmp.PID directories are builds still being copied in.
        if (name.rfind(key_prefix, 0) == 0 && name.find('.') == std::string::npos &&
            is_complete_build(entry.path())) {
            found.push_back(entry.path());
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

BuildResult build_and_record(Database& db, const BuildRequest& request, const Progress& progress) {
    KernelBuilder builder(cache_dir(), progress);
    BuildResult result = builder.build(request);
    BuildStore store(db);
    if (result.cache_hit) {
        if (auto known = store.find(result.key)) {
            ensure_manifest(*known);
            store.touch(result.key);
            return result;
        }
        // Built for another database: its manifest keeps the real build time.
        if (auto imported = read_build_manifest(result.artifact_dir)) {
            store.record(*imported);
            return result;
        }
    }
    const BuildRow row = row_of(request, result);
    write_build_manifest(row);
    store.record(row);
    return result;
}

std::optional<BuildRow> lookup_build(Database& db, const std::string& key_or_prefix,
                                     bool& from_cache) {
    from_cache = false;
    BuildStore store(db);
    if (auto known = store.find(key_or_prefix)) { // also checks the prefix's length
        ensure_manifest(*known);
        return known;
    }
    const auto dirs = cached_build_dirs(key_or_prefix);
    if (dirs.empty()) {
        return std::nullopt;
    }
    if (dirs.size() > 1) {
        throw Error("build key prefix '" + key_or_prefix + "' is ambiguous in " +
                    (cache_dir() / "builds").string() + ": give more characters");
    }
    const auto row = read_build_manifest(dirs.front());
    if (!row) {
        throw Error(fmt::format(
            "build {} is in the cache ({}) but was made before builds carried {}, so this "
            "database cannot import it: use the database that built it (--db), boot its image "
            "with --kernel, or build it again (a cache hit records it)",
            dirs.front().filename().string().substr(0, 12), dirs.front().string(),
            k_build_manifest));
    }
    from_cache = true;
    return row;
}

std::optional<BuildRow> find_cached_build(Database& db, const std::string& key_or_prefix) {
    bool from_cache = false;
    auto row = lookup_build(db, key_or_prefix, from_cache);
    if (!row || !from_cache) {
        return row;
    }
    BuildStore store(db);
    store.record(*row);
    return store.find(row->key);
}

} // namespace bb
