#pragma once
#include "util/arch.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bb {

// A guest program (guest.programs): one C source compiled into a static executable for the
// guest's architecture, which has no libraries. It goes to /bin/<name> in the image.
struct GuestProgram {
    std::string name; // the source's stem: "sync_rcu_latency" for sync_rcu_latency.c
    std::filesystem::path source;
    std::filesystem::path binary; // in the cache
    std::string key;              // hash of everything the binary depends on
    bool cache_hit = false;
};

// The C compiler for `arch` on this host: "gcc" natively, the Debian cross compiler otherwise.
std::string guest_compiler(Arch arch);

// Flags every guest program is built with (static: the guest has no libraries).
const std::vector<std::string>& guest_program_flags();

// The /bin name of a source: its stem.
std::string guest_program_name(const std::filesystem::path& source);

// Compiles `source` for `arch` (or finds it in `cache`/programs). The key hashes the compiler's
// --version, the flags and the *preprocessed* source, so an edited header beside the source is a
// new binary too, and a moved checkout still hits. Written temp-then-rename; the result is
// checked to be a static ELF for `arch`. Throws Error with the compiler's messages on failure.
GuestProgram build_guest_program(Arch arch, const std::filesystem::path& source,
                                 const std::filesystem::path& cache);

} // namespace bb
