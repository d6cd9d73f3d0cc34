#pragma once
#include "util/host_facts.h"

#include <atomic>
#include <libvirt/libvirt.h>
#include <mutex>
#include <string>

namespace bb {

// One open connection to a libvirt daemon (a host of the fleet). libvirt objects are
// thread-safe, so every slot of a host shares it. A process-wide thread runs libvirt's event
// loop: it carries keepalive, close notifications and console stream events. Keepalive probes
// every few seconds, so a host that stops answering is declared lost within seconds; `lost()`
// then says why, and every call on the connection fails instead of blocking.
class LibvirtConnection {
  public:
    // Opens `uri` (read-write). Throws Error naming the URI and libvirt's reason, or when the
    // URI would make libvirt run a program of its choosing and that is not allowed
    // (vm/libvirt_uri.h).
    explicit LibvirtConnection(std::string uri, bool allow_uri_programs = false);
    ~LibvirtConnection();
    LibvirtConnection(const LibvirtConnection&) = delete;
    LibvirtConnection& operator=(const LibvirtConnection&) = delete;

    virConnectPtr get() const { return m_conn; }
    const std::string& uri() const { return m_uri; }
    // qemu:///system and qemu:///session reach this machine's files: no upload needed.
    bool is_local() const;
    // Empty while the host answers; else why it was lost (eof, keepalive, error).
    std::string lost() const;
    // What the host is, from libvirt (node info, hostname); its fingerprint includes the URI.
    HostFacts host_facts() const;
    // Destroys running domains whose names start with `prefix` (leftovers of an earlier
    // attempt of the same run). Returns how many.
    int destroy_domains_with_prefix(const std::string& prefix);

  private:
    static void on_close(virConnectPtr conn, int reason, void* opaque);

    std::string m_uri;
    virConnectPtr m_conn = nullptr;
    mutable std::mutex m_mutex;
    std::string m_lost;
};

// libvirt's last error message for this thread, or "unknown libvirt error".
std::string libvirt_error();
// Starts the process-wide libvirt event loop thread once (before the first connection).
void ensure_libvirt_event_loop();

} // namespace bb
