#pragma once
#include <filesystem>
#include <string>
#include <sys/types.h>

namespace bb {

// bootbench runs `make` in kernel trees it finds in its cache and boots the kernels it finds
// there, often as root on shared build hosts. A cache directory another user can write would let
// that user plant a tree (or a kernel) that bootbench then builds (or boots) with its rights.

// Why a directory owned by `owner` with `mode` must not be trusted by a process running as
// `euid`, or "" when it can be: a world-writable directory never (a sticky bit does not help:
// new names can still be planted); for root also no group-writable one and none owned by another
// user. Pure, so each rule is testable without being root.
std::string untrusted_directory_reason(uid_t owner, mode_t mode, uid_t euid);

// Throws Error naming `dir`, what is wrong and the fix (chmod/chown, or another cache) when `dir`
// exists and is not trustworthy for `euid`. A missing directory is fine: we create it ourselves.
void require_trusted_directory(const std::filesystem::path& dir, uid_t euid);

// `require_trusted_directory` for `root` and for each directory from `root` down to `inside`
// (which must lie under `root`).
void require_trusted_path(const std::filesystem::path& root, const std::filesystem::path& inside,
                          uid_t euid);

} // namespace bb
