#include "pipeline/boot_lanes.h"

#include "schedule/slots.h"
#include "store/database_id.h"
#include "util/error.h"
#include "vm/libvirt_launcher.h"
#include "vm/qemu_launcher.h"

#include <fmt/format.h>

namespace bb {

BootLanes BootLanes::local(const Setup& setup) {
    BootLanes lanes;
    const HostFacts facts = read_host_facts();
    const SlotPlan plan = plan_slots(facts.cpus, setup.max_smp, setup.local_slots);
    if (!plan.warning.empty()) {
        setup.note("warning: " + plan.warning);
    }
    LaneHost host;
    host.label = "local";
    host.host_id = setup.store.ensure_host(facts);
    QemuLauncher probe_launcher;
    host.accel = choose_accel(AccelRequest::Auto, setup.probe_spec, facts, host.host_id,
                              setup.store, probe_launcher);
    setup.note(fmt::format("accelerator: {} ({}); {} slot(s) of CPUs", to_string(host.accel.accel),
                           host.accel.reason, plan.slots.size()));
    lanes.m_hosts.push_back(host);
    for (const auto& cpus : plan.slots) {
        lanes.m_launchers.push_back(std::make_unique<QemuLauncher>(cpus));
        lanes.m_lanes.push_back({lanes.m_launchers.back().get(), 0});
    }
    return lanes;
}

BootLanes BootLanes::fleet(const std::vector<FleetHost>& hosts, const Setup& setup) {
    BootLanes lanes;
    for (const auto& fleet_host : hosts) {
        std::unique_ptr<LibvirtConnection> connection;
        try {
            connection =
                std::make_unique<LibvirtConnection>(fleet_host.uri, fleet_host.allow_uri_programs);
        } catch (const Error& error) {
            setup.note(fmt::format("warning: host {} left out: {}", fleet_host.uri, error.what()));
            continue;
        }
        const HostFacts facts = connection->host_facts();
        const SlotPlan plan = plan_slots(facts.cpus, setup.max_smp, fleet_host.slots);
        if (!plan.warning.empty()) {
            setup.note(fmt::format("warning: host {}: {}", fleet_host.uri, plan.warning));
        }
        auto volumes = std::make_unique<LibvirtVolumes>(*connection);
        LaneHost host;
        host.label = fleet_host.uri;
        host.host_id = setup.store.ensure_host(facts, fleet_host.uri);
        host.connection = connection.get();
        host.guests_local = false;
        LibvirtLauncher probe_launcher(*connection, *volumes);
        host.accel = choose_accel(AccelRequest::Auto, setup.probe_spec, facts, host.host_id,
                                  setup.store, probe_launcher);
        setup.note(fmt::format("host {} ({}, {} CPUs): {} ({}); {} slot(s)", fleet_host.uri,
                               facts.hostname, facts.cpus, to_string(host.accel.accel),
                               host.accel.reason, plan.slots.size()));
        const size_t index = lanes.m_hosts.size();
        for (size_t slot = 0; slot < plan.slots.size(); ++slot) {
            lanes.m_launchers.push_back(std::make_unique<LibvirtLauncher>(*connection, *volumes));
            lanes.m_lanes.push_back({lanes.m_launchers.back().get(), index});
        }
        lanes.m_hosts.push_back(host);
        lanes.m_connections.push_back(std::move(connection));
        lanes.m_volumes.push_back(std::move(volumes));
    }
    lanes.m_database_id = database_id(setup.store.database());
    if (lanes.m_lanes.empty()) {
        throw RuntimeFailure(
            "no host of the fleet can be reached (see the warnings above; docs/fleet.md "
            "says how to start libvirtd)");
    }
    return lanes;
}

BootLanes BootLanes::given(std::vector<std::unique_ptr<Launcher>> launchers,
                           std::vector<LaneHost> hosts, const std::vector<size_t>& lane_hosts,
                           std::function<std::string(size_t host)> lost) {
    if (launchers.size() != lane_hosts.size()) {
        throw Error("BootLanes::given: one host index per launcher");
    }
    BootLanes lanes;
    lanes.m_hosts = std::move(hosts);
    lanes.m_launchers = std::move(launchers);
    for (size_t lane = 0; lane < lane_hosts.size(); ++lane) {
        lanes.m_lanes.push_back({lanes.m_launchers[lane].get(), lane_hosts.at(lane)});
    }
    lanes.m_lost = std::move(lost);
    return lanes;
}

BootLanes BootLanes::borrowed(Launcher& launcher, LaneHost host) {
    BootLanes lanes;
    lanes.m_hosts.push_back(std::move(host));
    lanes.m_lanes.push_back({&launcher, 0});
    return lanes;
}

std::string BootLanes::lost(size_t host) const {
    if (m_lost) {
        return m_lost(host);
    }
    const LibvirtConnection* connection = m_hosts.at(host).connection;
    return connection != nullptr ? connection->lost() : std::string();
}

void BootLanes::set_run(long long run_id) {
    // One launcher per host is enough to name the run and clear its leftovers there.
    size_t last_host = static_cast<size_t>(-1);
    for (const auto& lane : m_lanes) {
        if (lane.host != last_host) {
            lane.launcher->set_run(run_id, m_database_id);
            last_host = lane.host;
        }
    }
}

} // namespace bb
