#include "kernel/tree_manifest.h"

#include "util/error.h"
#include "util/hash.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>
#include <vector>

namespace bb {

namespace fs = std::filesystem;

namespace {
std::string manifest_line(const fs::path& root, const fs::path& path) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
        throw Error(fmt::format("cannot inspect {}: {}", path.string(), std::strerror(errno)));
    }
    const std::string relative = path.lexically_relative(root).string();
    if (S_ISDIR(st.st_mode)) {
        // A directory's own times change whenever an entry does; its entries are listed anyway.
        return fmt::format("d {:o} {}", st.st_mode & 07777, relative);
    }
    std::string line =
        fmt::format("{} {:o} {} {}.{:09} {}", S_ISLNK(st.st_mode) ? 'l' : 'f', st.st_mode & 07777,
                    st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, relative);
    if (S_ISLNK(st.st_mode)) {
        line += " -> " + fs::read_symlink(path).string();
    } else if (!S_ISREG(st.st_mode)) {
        throw Error(fmt::format("{} is neither a file, a directory nor a symbolic link; a kernel "
                                "tree holds no such thing",
                                path.string()));
    }
    return line;
}
} // namespace

std::string tree_manifest_digest(const fs::path& root) {
    std::vector<std::string> lines;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
        lines.push_back(manifest_line(root, it->path()));
    }
    std::sort(lines.begin(), lines.end()); // readdir order is not stable across copies
    Sha256 hash;
    hash.tagged("format", "tree-manifest-v1");
    for (const auto& line : lines) {
        hash.tagged("entry", line);
    }
    return hash.hex();
}

} // namespace bb
