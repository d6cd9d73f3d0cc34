#pragma once
#include "kernel/kernel_builder.h"
#include "store/build_store.h"
#include "store/database.h"

#include <filesystem>
#include <string>

namespace bb {

// Builds (or finds) a kernel and records it in the `builds` table.
BuildResult build_and_record(Database& db, const BuildRequest& request,
                             const BuildProgress& progress);

// Resolves a fragment name ("rcuscale") to kernels/fragments/rcuscale.config, or a path as is.
std::filesystem::path resolve_fragment(const std::string& name_or_path);
// The fragment a bare tinyconfig needs to boot in qemu on `arch`.
std::string default_fragment(Arch arch);

} // namespace bb
