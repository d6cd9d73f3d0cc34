#pragma once
#include "kernel/kernel_builder.h"
#include "store/build_store.h"
#include "store/database.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// Builds (or finds) a kernel and records it in the `builds` table.
BuildResult build_and_record(Database& db, const BuildRequest& request, const Progress& progress);

// The cached build KEY_OR_PREFIX names: from this database's `builds` table, else from the
// cache directory (imported into this database from its build.json), else nullopt. So a kernel
// built for one database boots from any other.
std::optional<BuildRow> find_cached_build(Database& db, const std::string& key_or_prefix);
// The same without writing: a build the database lacks is read from the cache's build.json and
// not recorded (`from_cache` says so). For commands that open the database read-only (repro).
std::optional<BuildRow> lookup_build(Database& db, const std::string& key_or_prefix,
                                     bool& from_cache);

// The finished build directories in the cache whose key starts with `key_prefix`, sorted.
std::vector<std::filesystem::path> cached_build_dirs(const std::string& key_prefix = "");

// Resolves a fragment name ("rcuscale") to kernels/fragments/rcuscale.config, or a path as is.
std::filesystem::path resolve_fragment(const std::string& name_or_path);
// The fragment a bare tinyconfig needs to boot in qemu on `arch`.
std::string default_fragment(Arch arch);

} // namespace bb
