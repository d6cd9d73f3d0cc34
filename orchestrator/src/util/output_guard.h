#pragma once
// The one check every path a command writes for its user passes (report -o, history --html,
// compare --junit, repro -o, export -o), before the command does its work: a reading command
// must never replace the database it reads, and never an existing file unasked.
#include <filesystem>

namespace bb {

// Throws Error when `out` is the database (its path, a hard or symbolic link to it, or one of
// its -wal, -shm or -journal files), not a regular file, or an existing file without `force`.
void check_command_output(const std::filesystem::path& out, const std::filesystem::path& database,
                          bool force);

} // namespace bb
