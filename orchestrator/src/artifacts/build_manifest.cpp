#include "artifacts/build_manifest.h"

#include "store/patch_labels.h"
#include "util/error.h"
#include "util/paths.h"

#include <nlohmann/json.hpp>

namespace bb {

namespace fs = std::filesystem;

void write_build_manifest(const BuildRow& row) {
    const nlohmann::json json{{"key", row.key},
                              {"arch", row.arch},
                              {"source_identity", row.source_identity},
                              {"patches", require_patch_labels(row.patches_json, row.key)},
                              {"base_config", row.base_config},
                              {"fragments", nlohmann::json::parse(row.fragments_json)},
                              {"hz", row.hz ? nlohmann::json(*row.hz) : nullptr},
                              {"preempt", row.preempt ? nlohmann::json(*row.preempt) : nullptr},
                              {"config_sha256", row.config_sha256},
                              {"toolchain", row.toolchain},
                              {"target", row.target},
                              {"image_sha256", row.image_sha256},
                              {"image_bytes", row.image_bytes},
                              {"build_seconds", row.build_seconds},
                              {"explain", row.explain}};
    write_file_atomically(fs::path(row.artifact_dir) / k_build_manifest, json.dump(2) + "\n");
}

namespace {
BuildRow row_from_manifest(const nlohmann::json& json, const fs::path& artifact_dir) {
    BuildRow row;
    row.key = json.at("key").get<std::string>();
    row.arch = json.at("arch").get<std::string>();
    row.source_identity = json.at("source_identity").get<std::string>();
    row.patches_json = patch_labels_json(json.at("patches").get<std::vector<std::string>>());
    row.base_config = json.at("base_config").get<std::string>();
    row.fragments_json = json.at("fragments").dump();
    if (!json.at("hz").is_null()) {
        row.hz = json.at("hz").get<int>();
    }
    if (!json.at("preempt").is_null()) {
        row.preempt = json.at("preempt").get<std::string>();
    }
    row.config_sha256 = json.at("config_sha256").get<std::string>();
    row.toolchain = json.at("toolchain").get<std::string>();
    row.target = json.at("target").get<std::string>();
    row.artifact_dir = artifact_dir.string();
    row.image_sha256 = json.at("image_sha256").get<std::string>();
    row.image_bytes = json.at("image_bytes").get<long long>();
    row.build_seconds = json.at("build_seconds").get<double>();
    row.explain = json.at("explain").get<std::string>();
    return row;
}
} // namespace

std::optional<BuildRow> read_build_manifest(const fs::path& artifact_dir) {
    const fs::path path = artifact_dir / k_build_manifest;
    if (!fs::exists(path)) {
        return std::nullopt;
    }
    BuildRow row;
    try {
        row = row_from_manifest(nlohmann::json::parse(read_file(path)), artifact_dir);
    } catch (const nlohmann::json::exception& e) {
        throw Error(path.string() + ": not a bootbench build manifest: " + e.what());
    }
    // The directory's name is the key (builds/KEY); a copied or edited manifest must not
    // smuggle another build's identity into the database.
    if (row.key != artifact_dir.filename().string()) {
        throw Error(path.string() + " describes build " + row.key.substr(0, 12) +
                    ", not the directory's " + artifact_dir.filename().string().substr(0, 12));
    }
    return row;
}

} // namespace bb
