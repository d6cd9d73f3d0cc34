#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace bb {

// Where shared, rebuildable artifacts live (unpacked packages, initramfs images, kernel sources
// and builds). One well-known directory so tests and CI runs share it: $BOOTBENCH_CACHE, else
// /var/cache/bootbench when writable (root, CI), else $XDG_CACHE_HOME/bootbench.
std::filesystem::path cache_dir();

// The results database: --db, else $BOOTBENCH_DB, else db/bootbench.sqlite in the source tree
// this binary was built from (the "embedded default" of DESIGN.md).
std::filesystem::path default_db_path();

// Writes `bytes` to `path` through a temporary file and rename(2), so readers never see a
// half-written file and a crash leaves either the old file or the new one. A bare name writes
// to the current directory. Throws Error when `path` exists and is not a regular file (a device
// node, a FIFO, a directory or a symbolic link, which bootbench running as root must not
// replace or follow); the temporary file is created with O_EXCL | O_NOFOLLOW.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// The check write_file_atomically makes first, for commands that want to fail before their work:
// throws Error unless `path` is absent or a regular file.
void check_output_target(const std::filesystem::path& path);

std::string read_file(const std::filesystem::path& path);
// The same for a file a user names (a statement, a list): more than `limit` bytes is an Error
// naming the file — /dev/zero or a mistyped path to a disk image is not read without bound.
std::string read_user_file(const std::filesystem::path& path, std::size_t limit);

} // namespace bb
