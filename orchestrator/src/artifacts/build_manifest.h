#pragma once
#include "store/build_store.h"

#include <filesystem>
#include <optional>
#include <string>

namespace bb {

// Every cached kernel carries its own `builds` row as build.json beside its image, the way a
// Nix store path is self-describing: the cache, not one results database, is the authority on
// what was built. A database that has never seen a build imports it from here on first use.

inline constexpr const char* k_build_manifest = "build.json";

// Writes `row` (without its database timestamps) to ROW.artifact_dir/build.json, atomically.
void write_build_manifest(const BuildRow& row);

// The row a complete artifact directory describes; nullopt when it has no build.json (built
// before bootbench wrote one). Throws Error when the file is unreadable or names another key.
std::optional<BuildRow> read_build_manifest(const std::filesystem::path& artifact_dir);

} // namespace bb
