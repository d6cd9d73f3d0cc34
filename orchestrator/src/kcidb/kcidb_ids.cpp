#include "kcidb/kcidb_ids.h"

#include "kernel/build_key.h"
#include "util/error.h"
#include "util/hash.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bb {

namespace {
std::string with_origin(std::string_view rest) {
    return fmt::format("{}:{}", k_kcidb_origin, rest);
}

bool path_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}
} // namespace

std::vector<KcidbPatch> kcidb_patches(const BuildRow& build) {
    const auto names = nlohmann::json::parse(build.patches_json, nullptr, false);
    if (!names.is_array()) {
        throw Error(fmt::format("build {}: its patch list is not a JSON list: {}",
                                build.key.substr(0, 12), build.patches_json.substr(0, 80)));
    }
    const std::vector<std::string> prefixes = explained_patch_hashes(build.explain);
    std::vector<KcidbPatch> patches;
    for (const auto& name : names) {
        if (!name.is_string()) {
            throw Error(fmt::format("build {}: its patch list holds {}, not a name",
                                    build.key.substr(0, 12), name.dump()));
        }
        const std::size_t i = patches.size();
        patches.push_back({name.get<std::string>(), i < prefixes.size() ? prefixes[i] : ""});
    }
    return patches;
}

std::string kcidb_checkout_id(const BuildRow& build) {
    const std::vector<KcidbPatch> patches = kcidb_patches(build);
    if (patches.empty()) {
        return with_origin(build.source_identity);
    }
    Sha256 hash;
    hash.tagged("kcidb-patches", "1");
    for (const auto& patch : patches) {
        hash.tagged("name", patch.name).tagged("sha256-prefix", patch.sha256_prefix);
    }
    return with_origin(build.source_identity + "+patches-" + hash.hex().substr(0, 32));
}

std::string kcidb_unknown_checkout_id() {
    return with_origin("unknown-source");
}

std::string kcidb_build_id(const KcidbBootRow& boot) {
    return boot.build_key ? with_origin(*boot.build_key)
                          : with_origin("kernel-" + boot.kernel_sha256);
}

std::string kcidb_build_id(const BuildRow& build) {
    return with_origin(build.key);
}

std::string kcidb_test_id(const KcidbBootRow& boot) {
    Sha256 hash;
    hash.tagged("kcidb-test", "1")
        .tagged("host", boot.host_fingerprint)
        .tagged("run-started", boot.run_started_at)
        .tagged("boot-started", boot.started_at)
        .tagged("cell", boot.cell_key)
        .tagged("repeat", std::to_string(boot.repeat_index))
        .tagged("kernel", boot.kernel_sha256);
    return with_origin("boot-" + hash.hex().substr(0, 32));
}

std::string kcidb_test_path(std::string_view experiment) {
    if (experiment.empty()) {
        return "boot";
    }
    std::string path = "boot.";
    for (const char c : experiment) {
        path += path_character(c) ? c : '_';
    }
    return path;
}

} // namespace bb
