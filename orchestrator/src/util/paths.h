#pragma once
#include <filesystem>

namespace bb {

// Where shared, rebuildable artifacts live (unpacked packages, initramfs images, kernel sources
// and builds). One well-known directory so tests and CI runs share it: $BOOTBENCH_CACHE, else
// /var/cache/bootbench when writable (root, CI), else $XDG_CACHE_HOME/bootbench.
std::filesystem::path cache_dir();

// The results database: --db, else $BOOTBENCH_DB, else db/bootbench.sqlite in the source tree
// this binary was built from (the "embedded default" of DESIGN.md).
std::filesystem::path default_db_path();

// Writes `bytes` to `path` through a temporary file and rename(2), so readers never see a
// half-written file and a crash leaves either the old file or the new one.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

std::string read_file(const std::filesystem::path& path);

} // namespace bb
