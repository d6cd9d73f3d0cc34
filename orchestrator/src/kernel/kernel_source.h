#pragma once
#include "util/progress.h"

#include <filesystem>
#include <functional>
#include <string>

namespace bb {

// Where the kernel comes from:
//   debian:linux-source-6.12   Debian's source package, downloaded with apt and unpacked once
//   /path/to/linux             a local tree (copied privately; never modified)
//   git:/path/to/repo@ref      a commit of a git repository, checked out in a worktree
struct SourceSpec {
    enum class Kind { DebianPackage, LocalTree, GitRef };
    Kind kind = Kind::DebianPackage;
    std::string package = "linux-source-6.12";
    std::string version; // debian:PKG=VERSION pins it; "" takes apt's candidate
    std::filesystem::path path;
    std::string ref;
};

SourceSpec parse_source_spec(const std::string& text);
std::string default_source_text();

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
