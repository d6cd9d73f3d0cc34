#include "util/trusted_directory.h"

#include "util/error.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>

namespace bb {

namespace fs = std::filesystem;

std::string untrusted_directory_reason(uid_t owner, mode_t mode, uid_t euid) {
    if ((mode & S_IWOTH) != 0) {
        return fmt::format("is writable by every user (mode {:04o})", mode & 07777);
    }
    if (euid != 0) {
        // A group-writable cache shared by a team is a choice an ordinary user may make.
        return "";
    }
    if (owner != 0) {
        return fmt::format("is owned by uid {}, not root", owner);
    }
    if ((mode & S_IWGRP) != 0) {
        return fmt::format("is writable by its group (mode {:04o})", mode & 07777);
    }
    return "";
}

void require_trusted_directory(const fs::path& dir, uid_t euid) {
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0) {
        if (errno == ENOENT) {
            return;
        }
        throw Error(fmt::format("cannot inspect cache directory {}: {}", dir.string(),
                                std::strerror(errno)));
    }
    const std::string reason = untrusted_directory_reason(st.st_uid, st.st_mode, euid);
    if (reason.empty()) {
        return;
    }
    const std::string fix = euid == 0 && st.st_uid != 0
                                ? fmt::format("chown root: {0} && chmod go-w {0}", dir.string())
                                : fmt::format("chmod go-w {}", dir.string());
    throw Error(fmt::format(
        "refusing to use cache directory {}: it {}, so another user could plant a kernel tree or "
        "image that bootbench would build or boot with your rights. Fix: {} (or point "
        "BOOTBENCH_CACHE at a directory only you can write)",
        dir.string(), reason, fix));
}

void require_trusted_path(const fs::path& root, const fs::path& inside, uid_t euid) {
    require_trusted_directory(root, euid);
    fs::path dir = root;
    for (const auto& part : inside.lexically_relative(root)) {
        if (part == "." || part.empty()) {
            continue;
        }
        dir /= part;
        require_trusted_directory(dir, euid);
    }
}

} // namespace bb
