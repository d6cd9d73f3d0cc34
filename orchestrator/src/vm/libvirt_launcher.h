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
// `bootbench-<database>-<run>-<n>` and created with AUTODESTROY: they die with our connection.
class LibvirtLauncher final : public Launcher {
  public:
    LibvirtLauncher(LibvirtConnection& connection, LibvirtVolumes& volumes)
        : m_connection(connection), m_volumes(volumes) {}
    LaunchResult run(const QemuSpec& spec, const ConsoleCallbacks& callbacks) override;
    // Names the run's domains and destroys this database's leftovers of the same run.
    void set_run(long long run_id, const std::string& database_id) override;

    // Names from now on: `bootbench-<database>-<run>-<n>`. Before a run exists (the
    // accelerator probe), `bootbench-pid<pid>-<n>`.
    static void set_run_id(long long run_id, const std::string& database_id);
    static std::string domain_prefix();

  private:
    std::string placed_domain_xml(const QemuSpec& spec, const std::string& name);

    LibvirtConnection& m_connection;
    LibvirtVolumes& m_volumes;
};

// The first part of every domain name of run `run_id` in database `database_id`, dash included:
// `bootbench-1a2b3c4d-7-`. The database id keeps two databases' runs of the same number apart
// on a shared host; the trailing dash keeps run 7 apart from run 71.
std::string run_domain_prefix(const std::string& database_id, long long run_id);

// qemu's argv from libvirt's rendering of a domain (`virConnectDomainXMLToNative`): the
// shell-quoted text split into words, without the leading VAR=value environment.
std::vector<std::string> native_argv_words(const std::string& text);

} // namespace bb
