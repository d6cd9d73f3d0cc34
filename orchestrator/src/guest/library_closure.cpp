#include "guest/library_closure.h"

#include "util/error.h"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
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
    std::deque<Pending> pending;
    std::set<std::string> seen;
    auto enqueue = [&](const ElfDynamic& elf, const std::string& name, const std::string& package) {
        for (const auto& soname : elf.needed) {
            if (seen.insert(soname).second) {
                pending.push_back({soname, name, package});
            }
        }
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
    while (!pending.empty()) {
        const Pending item = pending.front();
        pending.pop_front();
        const std::optional<PackagedFile> found = provider.find(item.soname);
        if (!found) {
            throw Error(fmt::format("shared library {} (needed by {} from {}) is in none of the "
                                    "packages apt resolved for the closure; fix the package "
                                    "lists (apt-get update) or delete the nested cache",
                                    item.soname, item.needed_by, item.needed_by_package));
        }
        closure.libraries.push_back({item.soname, *found, item.needed_by});
        if (std::find(closure.packages.begin(), closure.packages.end(), found->package) ==
            closure.packages.end()) {
            closure.packages.push_back(found->package);
        }
        enqueue(provider.read(found->path), item.soname, found->package);
    }
    return closure;
}

} // namespace bb
