#pragma once
#include <string>

namespace bb {

// What a result depends on about the machine it was measured on. `fingerprint` identifies the
// host in the store (hostname + CPU model + CPU count + kernel release), so moving the database
// to another machine never mixes hosts.
struct HostFacts {
    std::string hostname;
    std::string kernel_release;
    std::string cpu_model;
    int cpus = 0;
    long long memory_bytes = 0;
    bool kvm_device = false;
    std::string fingerprint;
};

HostFacts read_host_facts();

} // namespace bb
