#pragma once
#include <filesystem>
#include <string>

namespace bb {

// What a private kernel tree is checked against before `make` runs in it. A stamp file proves
// nothing (anyone who can write the tree can write the stamp); hashing every byte of a kernel
// tree (~1.4 GB, ~90k files) on every build costs seconds. The manifest digest is the middle
// road: every entry's relative path, type, permission bits, size, modification time (ns) and,
// for a symbolic link, its target, in sorted order — one lstat per entry (92k in
// linux 6.12; a find walk of them took 0.5 s of CPU on a loaded 2-core host).
// Recorded when the tree is made, recomputed before reuse: a tree the builder did not make, or
// one changed since (a file edited, added or removed), no longer matches and is made again from
// the source. It does not stop someone who can write the cache and forges sizes and times:
// that is what refusing an untrusted cache directory is for (util/trusted_directory.h).
std::string tree_manifest_digest(const std::filesystem::path& root);

} // namespace bb
