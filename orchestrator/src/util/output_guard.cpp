#include "util/output_guard.h"

#include "util/error.h"
#include "util/paths.h"

#include <array>
#include <fmt/format.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
// The database and the files SQLite keeps beside it; replacing any of them loses data.
std::array<fs::path, 4> database_files(const fs::path& database) {
    return {database, fs::path(database.string() + "-wal"), fs::path(database.string() + "-shm"),
            fs::path(database.string() + "-journal")};
}

// Same file: one inode (a hard link, or the path itself), or the same place once resolved (a
// -wal that does not exist yet, a path through a symbolic link to the directory).
bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code error;
    if (fs::exists(a, error) && fs::exists(b, error) && fs::equivalent(a, b, error)) {
        return true;
    }
    const fs::path resolved_a = fs::weakly_canonical(a, error);
    if (error) {
        return false;
    }
    const fs::path resolved_b = fs::weakly_canonical(b, error);
    return !error && resolved_a == resolved_b;
}
} // namespace

void check_command_output(const fs::path& out, const fs::path& database, bool force) {
    for (const fs::path& file : database_files(database)) {
        if (same_file(out, file)) {
            throw Error(fmt::format("{} is {}, the database this command reads: write the "
                                    "output to another path (this refusal has no --force)",
                                    out.string(),
                                    file == database ? database.string()
                                                     : "a file of " + database.string() + " (" +
                                                           file.filename().string() + ")"));
        }
    }
    check_output_target(out); // a symbolic link, directory or device is never replaced
    std::error_code error;
    if (!force && fs::exists(fs::symlink_status(out, error))) {
        throw Error(fmt::format("{} exists: bootbench does not replace a file without --force",
                                out.string()));
    }
}

} // namespace bb
