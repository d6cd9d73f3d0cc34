#pragma once
#include "vm/libvirt_connection.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace bb {

// Puts a host's boot files (kernel, initramfs, firmware) where its qemu can read them. A
// remote host gets each file once, as a volume of the storage pool `bootbench` named by the
// file's content hash (uploaded through a libvirt stream). A volume's content is read back and
// hashed after the upload and before an existing one is reused: a killed upload leaves a volume
// of the right name and size holding zeros, which would otherwise boot forever after. A local
// connection (qemu:///system) reads our paths directly.
class LibvirtVolumes {
  public:
    explicit LibvirtVolumes(LibvirtConnection& connection) : m_connection(connection) {}
    // The path of `local` as the host sees it. Throws Error naming the host and the file.
    std::filesystem::path place(const std::filesystem::path& local);

    static constexpr const char* k_pool_name = "bootbench";
    static constexpr const char* k_pool_path = "/var/lib/libvirt/images/bootbench";

  private:
    virStoragePoolPtr pool();

    LibvirtConnection& m_connection;
    std::mutex m_mutex; // one upload at a time per host; guards the map
    std::map<std::filesystem::path, std::filesystem::path> m_placed;
};

// Volume name for a file: its content hash and its own name, e.g. `1a2b…-vmlinuz`.
std::string volume_name(const std::string& sha256, const std::filesystem::path& local);

} // namespace bb
