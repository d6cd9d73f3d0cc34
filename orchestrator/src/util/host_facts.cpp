#include "util/host_facts.h"

#include "util/hash.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

namespace bb {

namespace {
std::string value_after_colon(const std::string& line) {
    auto colon = line.find(':');
    if (colon == std::string::npos) {
        return {};
    }
    auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
}
} // namespace

HostFacts read_host_facts() {
    HostFacts facts;
    utsname names{};
    if (uname(&names) == 0) {
        facts.hostname = names.nodename;
        facts.kernel_release = names.release;
    }
    facts.cpus = static_cast<int>(std::thread::hardware_concurrency());
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            facts.cpu_model = value_after_colon(line);
            break;
        }
    }
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        if (line.rfind("MemTotal:", 0) == 0) {
            facts.memory_bytes = std::stoll(value_after_colon(line)) * 1024;
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
