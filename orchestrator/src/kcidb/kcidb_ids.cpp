#include "kcidb/kcidb_ids.h"

#include "kernel/build_key.h"
#include "store/patch_labels.h"
#include "util/error.h"
#include "util/hash.h"

#include <algorithm>
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
    const std::vector<std::string> names = require_patch_labels(build.patches_json, build.key);
    const std::vector<std::string> prefixes = explained_patch_hashes(build.explain);
    std::vector<KcidbPatch> patches;
    for (const auto& name : names) {
        const std::size_t i = patches.size();
        patches.push_back({name, i < prefixes.size() ? prefixes[i] : ""});
    }
    return patches;
}

std::string kcidb_source_identity(const std::string& identity) {
    const auto hashed = [&identity](std::string_view kind) {
        return fmt::format("{}-{}", kind, sha256_hex(identity).substr(0, 16));
    };
    if (identity.rfind("local:", 0) == 0) {
        return hashed("local"); // "local:/home/u/linux@…": a path of the machine that built it
    }
    const bool plain =
        !identity.empty() &&
        std::all_of(identity.begin(), identity.end(), [](char c) { return c > 0x20 && c < 0x7f; });
    return plain ? identity : hashed("source");
}

bool kcidb_date_time(std::string_view text) {
    // RFC 3339 as bootbench writes it: 2026-12-02T00:26:09.768Z (fraction optional).
    const auto digits = [&text](size_t from, size_t count) {
        return text.size() >= from + count &&
               std::all_of(text.begin() + static_cast<long>(from),
                           text.begin() + static_cast<long>(from + count),
                           [](char c) { return c >= '0' && c <= '9'; });
    };
    if (!(digits(0, 4) && text.size() >= 20 && text[4] == '-' && digits(5, 2) && text[7] == '-' &&
          digits(8, 2) && text[10] == 'T' && digits(11, 2) && text[13] == ':' && digits(14, 2) &&
          text[16] == ':' && digits(17, 2))) {
        return false;
    }
    size_t at = 19;
    if (text[at] == '.') {
        const size_t start = ++at;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            ++at;
        }
        if (at == start) {
            return false;
        }
    }
    return at + 1 == text.size() && text[at] == 'Z';
}

std::string kcidb_checkout_id(const BuildRow& build) {
    const std::vector<KcidbPatch> patches = kcidb_patches(build);
    const std::string source = kcidb_source_identity(build.source_identity);
    if (patches.empty()) {
        return with_origin(source);
    }
    Sha256 hash;
    hash.tagged("kcidb-patches", "1");
    for (const auto& patch : patches) {
        hash.tagged("name", patch.name).tagged("sha256-prefix", patch.sha256_prefix);
    }
    return with_origin(source + "+patches-" + hash.hex().substr(0, 32));
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
        .tagged("kernel", boot.kernel_sha256)
        // Unique by construction: a run and a boot started in the same millisecond twice (60
        // duplicate ids of 72) still differ by the boot's row.
        .tagged("boot-id", std::to_string(boot.id));
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
