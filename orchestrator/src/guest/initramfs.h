#pragma once
#include "util/arch.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bb {

struct GuestFile {
    std::string guest_path; // absolute, e.g. "/workload"
    std::filesystem::path host_path;
    int mode = 0755;
};

struct InitramfsSpec {
    Arch arch = Arch::X86_64;
    std::filesystem::path busybox;
    std::string init_script;
    std::vector<GuestFile> files;
};

struct Initramfs {
    std::filesystem::path path;
    std::string content_key; // hash of the inputs: equal keys, equal images
    bool cache_hit = false;
};

// Hash of everything that goes into the image (format version, arch, file bytes, /init).
std::string initramfs_key(const InitramfsSpec& spec);

// Builds (or finds in `cache`) a gzip'd newc cpio: /init, /bin/busybox, /dev/console and the
// extra files. Written temp-then-rename, so a crash never leaves a truncated image.
Initramfs build_initramfs(const InitramfsSpec& spec, const std::filesystem::path& cache);

} // namespace bb
