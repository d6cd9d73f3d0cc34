#pragma once
#include "experiment/experiment.h"
#include "pipeline/accel_selection.h"
#include "store/boot_store.h"
#include "vm/launcher.h"
#include "vm/libvirt_connection.h"
#include "vm/libvirt_volumes.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bb {

// A host samples boot on: this machine (qemu launched directly) or a libvirt host of a fleet.
struct LaneHost {
    std::string label; // "local" or the libvirt URI
    long long host_id = 0;
    AccelChoice accel;
    LibvirtConnection* connection = nullptr; // libvirt hosts: to notice it stopped answering
    // Its guests are this process's children: the quiet-host gate measures this machine for them.
    bool guests_local = true;
};

// One guest slot: a launcher and the host it runs on. A run has one worker per lane.
struct BootLane {
    Launcher* launcher = nullptr;
    size_t host = 0; // index into BootLanes::hosts()
};

// The lanes of a run and everything they hold open (connections, volume caches, launchers).
// Hosts are registered in the store and get their accelerator chosen (a probe boot on that
// host when KVM is possible there) as the lanes are set up.
class BootLanes {
  public:
    struct Setup {
        const QemuSpec& probe_spec; // what the accelerator probe boots
        int max_smp = 2;
        int local_slots = 0; // --slots, for this machine
        BootStore& store;
        std::function<void(const std::string&)> note;
    };
    // This machine's CPUs split into pinned slots (schedule/slots.h).
    static BootLanes local(const Setup& setup);
    // Each libvirt host with its slots. A host that cannot be reached is left out with a note;
    // none reachable is an Error.
    static BootLanes fleet(const std::vector<FleetHost>& hosts, const Setup& setup);
    // Lanes over launchers the caller made (unit tests' fake launchers): lane i runs on
    // hosts[lane_hosts[i]]; `lost` says why a host stopped answering ("" while it answers).
    static BootLanes given(std::vector<std::unique_ptr<Launcher>> launchers,
                           std::vector<LaneHost> hosts, const std::vector<size_t>& lane_hosts,
                           std::function<std::string(size_t host)> lost);

    // One lane over a launcher the caller keeps (`bootbench boot`'s, local or libvirt).
    static BootLanes borrowed(Launcher& launcher, LaneHost host);

    const std::vector<BootLane>& lanes() const { return m_lanes; }
    const std::vector<LaneHost>& hosts() const { return m_hosts; }
    // Why the lane's host is lost, or "" while it answers (always "" for this machine).
    std::string lost(size_t host) const;
    // Names the run's domains and clears leftovers of an earlier attempt of the run.
    void set_run(long long run_id);

  private:
    std::vector<std::unique_ptr<LibvirtConnection>> m_connections;
    std::vector<std::unique_ptr<LibvirtVolumes>> m_volumes;
    std::vector<std::unique_ptr<Launcher>> m_launchers;
    std::vector<LaneHost> m_hosts;
    std::vector<BootLane> m_lanes;
    std::string m_database_id; // names the run's libvirt domains (store/database_id.h)
    std::function<std::string(size_t host)> m_lost; // given lanes: the caller's verdict
};

} // namespace bb
