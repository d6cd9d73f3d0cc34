#pragma once

namespace bb {

// Foreign load: how busy the host was with work that is not ours while a guest booted (or
// before a sample, schedule/quiet_gate.h). busy(system, from /proc/stat) − CPU time of this
// process, its reaped children (getrusage) and its live children (/proc/PID/stat: the qemu of
// another lane still booting), as a fraction of all host CPUs over the interval. A child reaped
// while its time is read is counted at its least at the start and its most at the end, so the
// error only ever under-counts (clamped at 0): a flagged sample is certainly contaminated.
class LoadWindow {
  public:
    LoadWindow();
    // Fraction in [0, 1] since construction. `guest_cpu_s`: CPU time of a guest of ours that
    // is not our child (a local libvirt domain is libvirtd's), not foreign either.
    double foreign_load(double guest_cpu_s = 0) const;

  private:
    double m_start_wall = 0;
    double m_start_busy = 0;
    double m_start_ours = 0;
};

double system_busy_cpu_seconds();

// CPU seconds of this process and its children, reaped or live (their reaped children
// included). A child reaped between the reads is missed by `at_least` and counted twice by
// `at_most`.
struct OurCpuSeconds {
    double at_least = 0;
    double at_most = 0;
};
OurCpuSeconds our_cpu_seconds();
double live_children_cpu_seconds();

} // namespace bb
