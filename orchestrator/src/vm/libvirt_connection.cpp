#include "vm/libvirt_connection.h"

#include "util/error.h"
#include "util/hash.h"
#include "vm/libvirt_uri.h"

#include <fmt/format.h>
#include <libvirt/virterror.h>
#include <memory>
#include <thread>
#include <vector>

namespace bb {

namespace {
// Probe every 2 s, give up after 3 unanswered probes: a dead host is noticed in ~8 s.
constexpr int k_keepalive_interval_s = 2;
constexpr unsigned k_keepalive_count = 3;

// Runs virEventRunDefaultImpl until the process ends. The thread is detached on purpose: it
// only ever blocks in poll(), and joining it at exit would need a wake-up for no benefit.
void run_event_loop() {
    for (;;) {
        if (virEventRunDefaultImpl() < 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
}

void ignore_libvirt_errors(void* /*unused*/, virErrorPtr /*unused*/) {
    // Errors are read with virGetLastErrorMessage where they matter; libvirt's default
    // handler would print every one of them (including expected ones) to stderr.
}
} // namespace

std::string libvirt_error() {
    const char* message = virGetLastErrorMessage();
    return message != nullptr ? message : "unknown libvirt error";
}

void ensure_libvirt_event_loop() {
    static std::once_flag once;
    std::call_once(once, [] {
        virSetErrorFunc(nullptr, ignore_libvirt_errors);
        if (virEventRegisterDefaultImpl() < 0) {
            throw RuntimeFailure("libvirt: cannot start its event loop: " + libvirt_error());
        }
        std::thread(run_event_loop).detach();
    });
}

LibvirtConnection::LibvirtConnection(std::string uri, bool allow_uri_programs)
    : m_uri(std::move(uri)) {
    refuse_uri_programs(m_uri, allow_uri_programs);
    ensure_libvirt_event_loop();
    m_conn = virConnectOpen(m_uri.c_str());
    if (m_conn == nullptr) {
        throw RuntimeFailure(fmt::format("libvirt host {}: cannot connect: {} (is libvirtd running "
                                "there? see docs/fleet.md)",
                                m_uri, libvirt_error()));
    }
    // Local unix-socket connections answer keepalive too; failure to set it is not fatal.
    virConnectSetKeepAlive(m_conn, k_keepalive_interval_s, k_keepalive_count);
    virConnectRegisterCloseCallback(m_conn, on_close, this, nullptr);
}

LibvirtConnection::~LibvirtConnection() {
    virConnectUnregisterCloseCallback(m_conn, on_close);
    // Transient domains created with VIR_DOMAIN_START_AUTODESTROY die with this connection.
    virConnectClose(m_conn);
}

void LibvirtConnection::on_close(virConnectPtr /*conn*/, int reason, void* opaque) {
    auto* self = static_cast<LibvirtConnection*>(opaque);
    const char* why = reason == VIR_CONNECT_CLOSE_REASON_EOF         ? "connection closed"
                      : reason == VIR_CONNECT_CLOSE_REASON_KEEPALIVE ? "keepalive timed out"
                      : reason == VIR_CONNECT_CLOSE_REASON_CLIENT    ? "closed by bootbench"
                                                                     : "connection error";
    std::lock_guard lock(self->m_mutex);
    self->m_lost = why;
}

bool LibvirtConnection::is_local() const {
    return m_uri.rfind("qemu:///", 0) == 0;
}

std::string LibvirtConnection::lost() const {
    std::lock_guard lock(m_mutex);
    if (m_lost.empty() && virConnectIsAlive(m_conn) == 0) {
        return "connection lost";
    }
    return m_lost;
}

HostFacts LibvirtConnection::host_facts() const {
    HostFacts facts;
    if (char* name = virConnectGetHostname(m_conn)) {
        facts.hostname = name;
        free(name); // NOLINT: allocated by libvirt
    }
    virNodeInfo node{};
    if (virNodeGetInfo(m_conn, &node) == 0) {
        facts.cpu_model = node.model;
        facts.cpus = static_cast<int>(node.cpus);
        facts.memory_bytes = static_cast<long long>(node.memory) * 1024;
    }
    // libvirt does not tell the host's kernel; its qemu version is the closest fact it has.
    unsigned long version = 0;
    facts.kernel_release = "unknown (libvirt host)";
    if (virConnectGetVersion(m_conn, &version) == 0) {
        facts.kernel_release =
            fmt::format("unknown (libvirt host, qemu {}.{}.{})", version / 1000000,
                        version / 1000 % 1000, version % 1000);
    }
    // A KVM domain type only says /dev/kvm exists there; the accelerator probe decides.
    if (char* capabilities = virConnectGetCapabilities(m_conn)) {
        facts.kvm_device = std::string_view(capabilities).find("type='kvm'") != std::string::npos;
        free(capabilities); // NOLINT: allocated by libvirt
    }
    // The URI belongs to the identity: two URIs to one machine are two hosts of the fleet.
    facts.fingerprint = Sha256()
                            .tagged("libvirt-uri", m_uri)
                            .tagged("hostname", facts.hostname)
                            .tagged("cpu", facts.cpu_model)
                            .tagged("cpus", std::to_string(facts.cpus))
                            .hex()
                            .substr(0, 16);
    return facts;
}

int LibvirtConnection::destroy_domains_with_prefix(const std::string& prefix) {
    virDomainPtr* domains = nullptr;
    const int count = virConnectListAllDomains(m_conn, &domains, VIR_CONNECT_LIST_DOMAINS_ACTIVE);
    int destroyed = 0;
    for (int i = 0; i < count; ++i) {
        const char* name = virDomainGetName(domains[i]);
        if (name != nullptr && std::string_view(name).rfind(prefix, 0) == 0 &&
            virDomainDestroy(domains[i]) == 0) {
            ++destroyed;
        }
        virDomainFree(domains[i]);
    }
    free(domains); // NOLINT: allocated by libvirt
    return destroyed;
}

} // namespace bb
