#pragma once

namespace bb {

// Foreign load: how busy the host was with work that is not ours while a guest booted.
// busy(system, from /proc/stat) − CPU time of this process and its reaped children
// (getrusage), as a fraction of all host CPUs over the interval. With one guest at a time this
// is exact (the guest's qemu is reaped inside the interval); with parallel guests it
// under-counts (clamped at 0) — so a flagged sample is certainly contaminated.
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
double our_cpu_seconds();

} // namespace bb
