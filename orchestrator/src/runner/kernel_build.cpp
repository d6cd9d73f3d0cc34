#include "runner/kernel_build.h"

#include "util/error.h"
#include "util/hash.h"
#include "util/paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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
    return arch == Arch::Arm64 ? "arm64-virt-minimal" : "x86_64-minimal";
}

BuildResult build_and_record(Database& db, const BuildRequest& request,
                             const BuildProgress& progress) {
    KernelBuilder builder(cache_dir(), progress);
    BuildResult result = builder.build(request);
    BuildStore store(db);
    if (result.cache_hit && store.find(result.key)) {
        store.touch(result.key);
        return result;
    }
    BuildRow row;
    row.key = result.key;
    row.arch = std::string(to_string(request.arch));
    row.source_identity = result.source_identity;
    nlohmann::json patches = nlohmann::json::array();
    for (const auto& name : result.patch_names) {
        patches.push_back(name);
    }
    row.patches_json = patches.dump();
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
    store.record(row);
    return result;
}

} // namespace bb
