#include "guest/library_closure.h"

#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace bb {

namespace fs = std::filesystem;

namespace {
struct Pending {
    std::string soname;
    std::string needed_by;
    std::string needed_by_package;
};
} // namespace

LibraryClosure library_closure(const PackagedFile& root, LibraryProvider& provider) {
    LibraryClosure closure;
    std::vector<Pending> pending;
    std::set<std::string> seen;
    auto enqueue = [&](const ElfDynamic& elf, const std::string& name, const std::string& package) {
        for (const auto& soname : elf.needed) {
            if (seen.insert(soname).second) {
                pending.push_back({soname, name, package});
            }
        }
    };
    // Adds what is found now; returns the rest.
    auto resolve = [&](const std::vector<Pending>& wanted) {
        std::vector<Pending> rest;
        for (const auto& item : wanted) {
            const std::optional<PackagedFile> found = provider.find(item.soname);
            if (!found) {
                rest.push_back(item);
                continue;
            }
            closure.libraries.push_back({item.soname, *found, item.needed_by});
            if (std::find(closure.packages.begin(), closure.packages.end(), found->package) ==
                closure.packages.end()) {
                closure.packages.push_back(found->package);
            }
            enqueue(provider.read(found->path), item.soname, found->package);
        }
        return rest;
    };

    const ElfDynamic root_elf = provider.read(root.path);
    closure.interpreter = root_elf.interpreter;
    // The loader is found like a library: by its file name, in the libc package.
    if (root_elf.interpreter) {
        const std::string loader = fs::path(*root_elf.interpreter).filename().string();
        seen.insert(loader);
        pending.push_back({loader, root.path.filename().string(), root.package});
    }
    enqueue(root_elf, root.path.filename().string(), root.package);

    // Level by level, so that the sonames missing at one level are fetched in one batch.
    while (!pending.empty()) {
        const std::vector<Pending> level = std::move(pending);
        pending.clear();
        std::vector<Pending> unresolved = resolve(level);
        while (!unresolved.empty()) {
            std::vector<MissingSoname> missing;
            for (const auto& item : unresolved) {
                missing.push_back({item.soname, item.needed_by_package});
            }
            const std::vector<std::string> exhausted = provider.unpack_candidates(missing);
            unresolved = resolve(unresolved);
            for (const auto& item : unresolved) {
                if (std::find(exhausted.begin(), exhausted.end(), item.soname) != exhausted.end()) {
                    throw Error(fmt::format(
                        "shared library {} (needed by {} from {}) is in none of the packages {} "
                        "depends on; unpack the package that holds it into the nested cache or "
                        "fix the package lists (apt-get update)",
                        item.soname, item.needed_by, item.needed_by_package,
                        item.needed_by_package));
                }
            }
        }
    }
    return closure;
}

} // namespace bb
