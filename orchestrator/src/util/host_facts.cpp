#include "util/host_facts.h"

#include "util/hash.h"
#include "util/host_conditions.h"

#include <fstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace bb {

HostFacts read_host_facts() {
    HostFacts facts;
    utsname names{};
    if (uname(&names) == 0) {
        facts.hostname = names.nodename;
        facts.kernel_release = names.release;
    }
    facts.cpus = static_cast<int>(std::thread::hardware_concurrency());
    facts.cpu_model = cpuinfo_field("/", "model name").value_or("");
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        if (line.rfind("MemTotal:", 0) == 0) {
            facts.memory_bytes = std::stoll(line.substr(line.find(':') + 1)) * 1024;
            break;
        }
    }
    facts.kvm_device = access("/dev/kvm", R_OK | W_OK) == 0;
    facts.fingerprint = Sha256()
                            .tagged("hostname", facts.hostname)
                            .tagged("cpu", facts.cpu_model)
                            .tagged("cpus", std::to_string(facts.cpus))
                            .tagged("kernel", facts.kernel_release)
                            .hex()
                            .substr(0, 16);
    return facts;
}

} // namespace bb
