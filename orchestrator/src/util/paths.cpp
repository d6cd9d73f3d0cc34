#include "util/paths.h"

#include "util/error.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

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

void write_file_atomically(const fs::path& path, std::string_view bytes) {
    fs::create_directories(path.parent_path());
    fs::path temp = path;
    temp += ".tmp." + std::to_string(getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            fs::remove(temp, ignored);
            throw Error("cannot write " + temp.string() + " (disk full?)");
        }
    }
    fs::rename(temp, path);
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

} // namespace bb
