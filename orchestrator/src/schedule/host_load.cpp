#include "schedule/host_load.h"

#include "util/monotonic_clock.h"

#include <filesystem>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

namespace bb {

namespace fs = std::filesystem;

namespace {
double to_seconds(const timeval& value) {
    return static_cast<double>(value.tv_sec) + static_cast<double>(value.tv_usec) * 1e-6;
}

// utime + stime + cutime + cstime of /proc/PID/stat when its parent is `parent`, in clock
// ticks; 0 otherwise (or when the process is gone). The fields after the command name, which
// may hold spaces and parentheses, start after its last ')'.
long long child_ticks(const fs::path& stat_path, long parent) {
    std::ifstream in(stat_path);
    std::string line;
    if (!std::getline(in, line)) {
        return 0;
    }
    const auto close = line.rfind(')');
    if (close == std::string::npos) {
        return 0;
    }
    std::istringstream fields(line.substr(close + 1));
    std::string state;
    long ppid = 0;
    fields >> state >> ppid;
    if (ppid != parent) {
        return 0;
    }
    // Fields 5..13 (pgrp .. cmajflt) come before utime (14).
    std::string skipped;
    for (int i = 0; i < 9; ++i) {
        fields >> skipped;
    }
    long long ticks[4] = {};
    for (auto& value : ticks) {
        fields >> value;
    }
    return fields ? ticks[0] + ticks[1] + ticks[2] + ticks[3] : 0;
}

double reaped_cpu_seconds() {
    rusage self{};
    rusage children{};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    return to_seconds(self.ru_utime) + to_seconds(self.ru_stime) + to_seconds(children.ru_utime) +
           to_seconds(children.ru_stime);
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

OurCpuSeconds our_cpu_seconds() {
    const double reaped_before = reaped_cpu_seconds();
    const double live = live_children_cpu_seconds();
    const double reaped_after = reaped_cpu_seconds();
    return {reaped_before + live, reaped_after + live};
}

double live_children_cpu_seconds() {
    const long self = static_cast<long>(getpid());
    long long ticks = 0;
    std::error_code error;
    // Processes come and go while /proc is read: no entry is worth an exception.
    for (fs::directory_iterator entry("/proc", error), end; !error && entry != end;
         entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        if (std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            ticks += child_ticks(entry->path() / "stat", self);
        }
    }
    return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

LoadWindow::LoadWindow()
    : m_start_wall(monotonic_seconds()), m_start_busy(system_busy_cpu_seconds()),
      m_start_ours(our_cpu_seconds().at_least) {}

double LoadWindow::foreign_load(double guest_cpu_s) const {
    const double wall = monotonic_seconds() - m_start_wall;
    const double cpus = std::max(1U, std::thread::hardware_concurrency());
    if (wall <= 0.01) {
        return 0;
    }
    const double busy = system_busy_cpu_seconds() - m_start_busy;
    const double ours = our_cpu_seconds().at_most - m_start_ours + guest_cpu_s;
    return std::clamp((busy - ours) / (wall * cpus), 0.0, 1.0);
}

} // namespace bb
