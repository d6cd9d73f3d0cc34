#pragma once
// What `bootbench boot` boots and where, resolved from its options so the CLI only parses and
// prints: the kernel (a cached build by key, a file, or Debian's cloud kernel) and the machine
// (this one, or one libvirt host with the connection its launcher needs).
#include "util/arch.h"
#include "util/host_facts.h"
#include "vm/launcher.h"
#include "vm/libvirt_connection.h"
#include "vm/libvirt_volumes.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace bb {

struct BootKernel {
    std::filesystem::path image;
    Arch arch = Arch::Arm64;
    std::optional<std::string> build_key; // when it is a cached build
};

// --build KEY (found from any database: `db_path`'s builds, else the cache's manifests),
// --kernel PATH, or neither: the default kernel of `arch`. The image is checked to be a
// kernel of its arch before anything boots. Throws Error naming what is missing.
BootKernel resolve_boot_kernel(const std::filesystem::path& db_path, const std::string& build,
                               const std::string& kernel, Arch arch);

// The launcher of a boot series and what it holds open.
class BootMachine {
  public:
    static BootMachine local();
    // A libvirt host at `uri` (see docs/fleet.md); its guests are transient domains.
    static BootMachine libvirt(const std::string& uri, bool allow_uri_programs);

    Launcher& launcher() { return *m_launcher; }
    // The libvirt host's facts (nullopt: this machine) and its URI.
    const std::optional<HostFacts>& host() const { return m_host; }
    const std::string& uri() const { return m_uri; }

  private:
    std::unique_ptr<LibvirtConnection> m_connection;
    std::unique_ptr<LibvirtVolumes> m_volumes;
    std::unique_ptr<Launcher> m_launcher;
    std::optional<HostFacts> m_host;
    std::string m_uri;
};

} // namespace bb
