#pragma once
// What apt itself says a package needs: the "Inst" lines of a simulated install (`apt-get -s`)
// against an empty package state, i.e. the package and its whole Depends/Pre-Depends closure,
// without recommends. bootbench unpacks exactly that set (guest/foreign_packages.h); the ELF
// closure (guest/library_closure.h) only checks that every library arrived.
#include "util/arch.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// The argv of that simulation for `package` of `arch` (as native), with `empty_status` as
// dpkg's status file: nothing counts as installed, so nothing of the host's is assumed.
std::vector<std::string> apt_closure_argv(const std::string& package, Arch arch,
                                          const std::filesystem::path& empty_status);

// "Inst libc6 (2.36-9+deb12u14 Debian:12.15/oldstable [arm64])" -> "libc6:arm64";
// architecture-independent packages ("[all]") stay bare. In apt's order, each once.
std::vector<std::string> parse_apt_simulation(std::string_view output);

} // namespace bb
