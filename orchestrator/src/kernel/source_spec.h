#pragma once
// Where a kernel's source comes from, as written (--source, kernel.source): parsed and checked
// without touching anything, so that validation runs the build's own check (issue 48 item 12).
#include <filesystem>
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

} // namespace bb
