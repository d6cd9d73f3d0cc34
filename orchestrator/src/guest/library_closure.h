#pragma once
#include "guest/elf_dynamic.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// A file found in an unpacked package.
struct PackagedFile {
    std::filesystem::path path; // on the host, symlinks resolved
    std::string package;        // e.g. "libglib2.0-0:arm64"
};

// Where the shared objects of a closure come from. The real one (guest/foreign_packages.h) is
// the package set apt resolved and unpacked; tests use a map.
class LibraryProvider {
  public:
    virtual ~LibraryProvider() = default;
    // A shared object named `soname` among the unpacked packages.
    virtual std::optional<PackagedFile> find(const std::string& soname) = 0;
    virtual ElfDynamic read(const std::filesystem::path& path) = 0;
};

struct ClosureLibrary {
    std::string soname; // the name the loader looks for (the file's name in the guest)
    PackagedFile file;
    std::string needed_by; // soname or path of the first file that asked for it
};

struct LibraryClosure {
    std::optional<std::string> interpreter; // the root's PT_INTERP, e.g. /lib/ld-linux-aarch64.so.1
    std::vector<ClosureLibrary> libraries;  // every DT_NEEDED, transitively, and the interpreter
    std::vector<std::string> packages;      // packages the libraries came from, first use order
};

// Follows DT_NEEDED from `root` through the provider's packages: the check that apt's package
// closure holds every library the binary loads. Throws Error naming a missing soname, the file
// that needs it and that file's package.
LibraryClosure library_closure(const PackagedFile& root, LibraryProvider& provider);

} // namespace bb
