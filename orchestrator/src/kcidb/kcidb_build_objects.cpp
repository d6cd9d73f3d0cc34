#include "kcidb/kcidb_ids.h"
#include "kcidb/kcidb_objects.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {
using nlohmann::json;

// A stored JSON column as JSON, or as the text it is when it does not parse.
json parsed(const std::string& text) {
    json value = json::parse(text, nullptr, false);
    return value.is_discarded() ? json(text) : value;
}

bool is_hex(std::string_view text, std::size_t length) {
    return text.size() == length &&
           text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// The source as people name it: "Debian linux-source-6.12 6.12.118-1~deb12u1".
std::string describe_source(const std::string& identity) {
    constexpr std::string_view debian = "debian-package:";
    if (identity.rfind(debian, 0) == 0) {
        std::string rest = identity.substr(debian.size());
        const auto equals = rest.find('=');
        if (equals != std::string::npos) {
            rest[equals] = ' ';
        }
        return "Debian " + rest;
    }
    return identity;
}

// The schema's architecture pattern is [a-z0-9_]*; bootbench's names (arm64, x86_64) fit it.
bool schema_architecture(std::string_view arch) {
    return arch.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

std::string config_name(const BuildRow& build) {
    std::string name = build.base_config;
    const json fragments = parsed(build.fragments_json);
    if (fragments.is_array()) {
        for (const auto& fragment : fragments) {
            name += "+" + (fragment.is_string() ? fragment.get<std::string>() : fragment.dump());
        }
    }
    return name;
}

json build_misc(const BuildRow& build) {
    json misc = {{"build_key", build.key},
                 {"base_config", build.base_config},
                 {"fragments", parsed(build.fragments_json)},
                 {"config_sha256", build.config_sha256},
                 {"target", build.target},
                 {"image_sha256", build.image_sha256},
                 {"image_bytes", build.image_bytes},
                 {"recorded_at", build.created_at}};
    if (build.hz) {
        misc["hz"] = *build.hz;
    }
    if (build.preempt) {
        misc["preempt"] = *build.preempt;
    }
    return misc;
}
} // namespace

json kcidb_checkout(const BuildRow& build) {
    json patches = json::array();
    for (const auto& patch : kcidb_patches(build)) {
        patches.push_back({{"name", patch.name}, {"sha256_prefix", patch.sha256_prefix}});
    }
    json checkout = {{"id", kcidb_checkout_id(build)},
                     {"origin", k_kcidb_origin},
                     {"valid", true}, // a build of it exists: the patches applied
                     {"misc",
                      {{"source_identity", kcidb_source_identity(build.source_identity)},
                       {"patches", patches}}}};
    checkout["comment"] = describe_source(kcidb_source_identity(build.source_identity)) +
                          (patches.empty() ? "" : fmt::format(", {} patch(es)", patches.size()));
    if (patches.empty()) {
        checkout["patchset_hash"] = ""; // the schema's word for "no patches applied"
    }
    constexpr std::string_view git = "git:";
    if (build.source_identity.rfind(git, 0) == 0 &&
        is_hex(std::string_view(build.source_identity).substr(git.size()), 40)) {
        checkout["git_commit_hash"] = build.source_identity.substr(git.size());
    }
    return checkout;
}

json kcidb_unknown_checkout() {
    return {{"id", kcidb_unknown_checkout_id()},
            {"origin", k_kcidb_origin},
            {"comment", "kernels bootbench did not build: their source is not recorded"}};
}

json kcidb_build(const BuildRow& build) {
    json object = {
        {"id", kcidb_build_id(build)},
        {"origin", k_kcidb_origin},
        {"checkout_id", kcidb_checkout_id(build)},
        {"config_name", config_name(build)},
        {"compiler", build.toolchain},
        {"valid", true}, // the builds table holds finished builds only
        {"comment", fmt::format("{} {} of {}", build.arch, build.target,
                                describe_source(kcidb_source_identity(build.source_identity)))},
        {"misc", build_misc(build)}};
    if (schema_architecture(build.arch)) {
        object["architecture"] = build.arch;
    }
    if (std::isfinite(build.build_seconds)) {
        object["duration"] = build.build_seconds;
    }
    return object;
}

json kcidb_unbuilt_build(const KcidbBootRow& boot) {
    json object = {{"id", kcidb_build_id(boot)},
                   {"origin", k_kcidb_origin},
                   {"checkout_id", kcidb_unknown_checkout_id()},
                   {"comment", "a kernel image without a build record here; only its sha256 is "
                               "known"},
                   {"misc", {{"kernel_sha256", boot.kernel_sha256}}}};
    if (schema_architecture(boot.arch)) {
        object["architecture"] = boot.arch;
    }
    if (boot.build_key) {
        object["misc"]["build_key"] = *boot.build_key;
    }
    return object;
}

} // namespace bb
