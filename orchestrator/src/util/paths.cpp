#include "util/paths.h"

#include "util/error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

#ifndef BOOTBENCH_SOURCE_DIR
#error "BOOTBENCH_SOURCE_DIR must be defined by the build"
#endif

namespace bb {

namespace fs = std::filesystem;

namespace {
bool usable_dir(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    return !ec && access(dir.c_str(), W_OK) == 0;
}
} // namespace

fs::path cache_dir() {
    if (const char* env = std::getenv("BOOTBENCH_CACHE"); env && *env) {
        if (!usable_dir(env)) {
            throw Error(std::string("BOOTBENCH_CACHE=") + env + " is not a writable directory");
        }
        return env;
    }
    if (usable_dir("/var/cache/bootbench")) {
        return "/var/cache/bootbench";
    }
    fs::path base;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = fs::path(home) / ".cache";
    } else {
        throw Error("no cache directory: set BOOTBENCH_CACHE");
    }
    fs::path dir = base / "bootbench";
    if (!usable_dir(dir)) {
        throw Error("cannot create cache directory " + dir.string() + ": set BOOTBENCH_CACHE");
    }
    return dir;
}

fs::path default_db_path() {
    if (const char* env = std::getenv("BOOTBENCH_DB"); env && *env) {
        return env;
    }
    return fs::path(BOOTBENCH_SOURCE_DIR) / "db" / "bootbench.sqlite";
}

// rename(2) replaces whatever the name holds: run as root, `-o /dev/null` would turn the device
// node into a file, and a symbolic link would be replaced by a file although the user meant its
// target.
void check_output_target(const fs::path& path) {
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) {
        throw Error(fmt::format("cannot write {}: {}", path.string(), ec.message()));
    }
    if (status.type() == fs::file_type::not_found || status.type() == fs::file_type::regular) {
        return;
    }
    const char* what = status.type() == fs::file_type::symlink     ? "a symbolic link"
                       : status.type() == fs::file_type::directory ? "a directory"
                                                                   : "not a regular file";
    throw Error(fmt::format("cannot write {}: it is {}; bootbench only writes regular files "
                            "(give the path of a new or regular file)",
                            path.string(), what));
}

namespace {
// O_EXCL | O_NOFOLLOW: a file or link planted at the temporary name is never written through.
void write_new_file(const fs::path& temp, std::string_view bytes) {
    const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        throw Error(fmt::format("cannot create {}: {}", temp.string(), std::strerror(errno)));
    }
    size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const int saved = errno;
            close(fd);
            unlink(temp.c_str());
            throw Error(fmt::format("cannot write {}: {}", temp.string(), std::strerror(saved)));
        }
        written += static_cast<size_t>(n);
    }
    if (close(fd) != 0) {
        const int saved = errno;
        unlink(temp.c_str());
        throw Error(fmt::format("cannot write {}: {}", temp.string(), std::strerror(saved)));
    }
}
} // namespace

void write_file_atomically(const fs::path& path, std::string_view bytes) {
    check_output_target(path);
    std::error_code ec;
    // A bare file name ("phase.html") has no directory to create: it goes to the current one.
    if (path.has_parent_path() && !fs::create_directories(path.parent_path(), ec) && ec) {
        throw Error(fmt::format("cannot create directory {} for {}: {}",
                                path.parent_path().string(), path.string(), ec.message()));
    }
    fs::path temp = path;
    temp += ".tmp." + std::to_string(getpid());
    unlink(temp.c_str()); // a stale temporary of a crashed process with this pid; never followed
    write_new_file(temp, bytes);
    if (rename(temp.c_str(), path.c_str()) != 0) {
        const int saved = errno;
        unlink(temp.c_str());
        throw Error(fmt::format("cannot write {}: {}", path.string(), std::strerror(saved)));
    }
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error("cannot read " + path.string());
    }
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

std::string read_user_file(const fs::path& path, std::size_t limit) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error("cannot read " + path.string());
    }
    std::string content(limit + 1, '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got > limit) {
        throw Error(fmt::format("{} is larger than {} bytes: not read", path.string(), limit));
    }
    content.resize(got);
    return content;
}

} // namespace bb
