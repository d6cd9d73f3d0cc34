#pragma once
#include "guest/initramfs.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bb {

// bootbench's own initramfs for `arch`: busybox + the marker-printing /init, plus a workload
// script run between the markers when given, plus the kernel's modules (the `modules/`
// directory beside a built kernel image) flat in /lib/modules for busybox insmod, plus each
// guest program (a C source, compiled statically for `arch`) as /bin/<name>, plus each module of
// `module_names` found for the kernel (kernel_module_named), plus each of `boot_modules` (found
// the same way), which /init loads in order before the boot marker. Cached by content in the
// cache directory.
Initramfs prepare_guest_image(Arch arch,
                              const std::optional<std::filesystem::path>& workload_script,
                              const std::filesystem::path& kernel_image = {},
                              const std::vector<std::filesystem::path>& programs = {},
                              const std::vector<std::string>& module_names = {},
                              const std::vector<std::string>& boot_modules = {});

// The module NAME.ko of a kernel image: beside it (bootbench's builds keep `modules/`) or in the
// lib/modules tree of the Debian package it was unpacked from. Throws naming both places.
std::filesystem::path kernel_module_named(const std::filesystem::path& kernel_image,
                                          const std::string& name);

// The modules bootbench's builder keeps beside a kernel image; empty when it has none.
std::vector<std::filesystem::path> kernel_modules_beside(const std::filesystem::path& kernel_image);

} // namespace bb
