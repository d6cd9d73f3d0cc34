#pragma once
#include "kernel/source_spec.h"
#include "util/progress.h"

#include <filesystem>
#include <functional>
#include <string>

namespace bb {

struct SourceTree {
    std::filesystem::path root;
    // What the tree is, for build keys: the package and its version, or a commit plus the hash
    // of any uncommitted diff.
    std::string identity;
    bool copy_needed = false; // a user's tree: copy, do not hard-link (editors write in place)
};

SourceTree resolve_source(const SourceSpec& spec, const std::filesystem::path& cache,
                          const ProgressFn& progress);

} // namespace bb
