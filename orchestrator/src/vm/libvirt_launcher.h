#pragma once
#include "vm/launcher.h"
#include "vm/libvirt_connection.h"
#include "vm/libvirt_volumes.h"

#include <atomic>
#include <string>

namespace bb {

// A guest as a transient libvirt domain on one host. The domain is created paused, its serial
// console opened as a non-blocking stream, and only then resumed, so no early byte is lost.
// Each chunk is stamped with CLOCK_MONOTONIC when read, as QemuLauncher does; the clock starts
// when the domain is requested (the equivalent of spawning qemu). Domains are named
// `bootbench-<run>-<n>` and created with AUTODESTROY: they die with our connection.
class LibvirtLauncher final : public Launcher {
  public:
    LibvirtLauncher(LibvirtConnection& connection, LibvirtVolumes& volumes)
        : m_connection(connection), m_volumes(volumes) {}
    LaunchResult run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) override;
    void set_run(long long run_id) override;

    // Names from now on: `bootbench-<run>-<n>`. Before a run exists (the accelerator probe),
    // `bootbench-pid<pid>-<n>`.
    static void set_run_id(long long run_id);
    static std::string domain_prefix();

  private:
    LibvirtConnection& m_connection;
    LibvirtVolumes& m_volumes;
};

// qemu's argv from libvirt's rendering of a domain (`virConnectDomainXMLToNative`): the
// shell-quoted text split into words, without the leading VAR=value environment.
std::vector<std::string> native_argv_words(const std::string& text);

} // namespace bb
