#pragma once
#include "vm/libvirt_connection.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace bb {

// Puts a host's boot files (kernel, initramfs, firmware) where its qemu can read them. A
// remote host gets each file once, as a volume of the storage pool `bootbench` named by the
// file's content hash (uploaded through a libvirt stream; an existing volume is reused). A
// local connection (qemu:///system) reads our paths directly.
class LibvirtVolumes {
  public:
    explicit LibvirtVolumes(LibvirtConnection& connection) : m_connection(connection) {}
    // The path of `local` as the host sees it. Throws Error naming the host and the file.
    std::filesystem::path place(const std::filesystem::path& local);

    static constexpr const char* k_pool_name = "bootbench";
    static constexpr const char* k_pool_path = "/var/lib/libvirt/images/bootbench";

  private:
    virStoragePoolPtr pool();
    std::filesystem::path upload(virStoragePoolPtr pool, const std::filesystem::path& local,
                                 const std::string& name);

    LibvirtConnection& m_connection;
    std::mutex m_mutex; // one upload at a time per host; guards the map
    std::map<std::filesystem::path, std::filesystem::path> m_placed;
};

// Volume name for a file: its content hash and its own name, e.g. `1a2b…-vmlinuz`.
std::string volume_name(const std::string& sha256, const std::filesystem::path& local);

} // namespace bb
