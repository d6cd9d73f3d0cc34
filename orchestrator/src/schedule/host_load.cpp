#include "schedule/host_load.h"

#include "util/monotonic_clock.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

namespace bb {

namespace {
double to_seconds(const timeval& value) {
    return static_cast<double>(value.tv_sec) + static_cast<double>(value.tv_usec) * 1e-6;
}
} // namespace

double system_busy_cpu_seconds() {
    std::ifstream stat("/proc/stat");
    std::string line;
    std::getline(stat, line);
    std::istringstream fields(line);
    std::string label;
    fields >> label;
    // user nice system idle iowait irq softirq steal guest guest_nice
    long long values[10] = {};
    for (auto& value : values) {
        fields >> value;
    }
    const long long busy = values[0] + values[1] + values[2] + values[5] + values[6] + values[7];
    return static_cast<double>(busy) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double our_cpu_seconds() {
    rusage self{};
    rusage children{};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    return to_seconds(self.ru_utime) + to_seconds(self.ru_stime) + to_seconds(children.ru_utime) +
           to_seconds(children.ru_stime);
}

LoadWindow::LoadWindow()
    : m_start_wall(monotonic_seconds()), m_start_busy(system_busy_cpu_seconds()),
      m_start_ours(our_cpu_seconds()) {}

double LoadWindow::foreign_load(double guest_cpu_s) const {
    const double wall = monotonic_seconds() - m_start_wall;
    const double cpus = std::max(1U, std::thread::hardware_concurrency());
    if (wall <= 0.01) {
        return 0;
    }
    const double busy = system_busy_cpu_seconds() - m_start_busy;
    const double ours = our_cpu_seconds() - m_start_ours + guest_cpu_s;
    return std::clamp((busy - ours) / (wall * cpus), 0.0, 1.0);
}

} // namespace bb
