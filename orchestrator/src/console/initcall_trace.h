#pragma once
// Per-initcall times of one boot, read from the kernel's ring buffer after the boot is timed.
//
// With `initcall_debug` on its command line the kernel logs every initcall at KERN_DEBUG, a
// level the console does not print by default, so the timed boot pays for the log but not for
// a serial line per initcall. After its timing marker, /init (guest/init_script.cpp) dumps the
// relevant ring-buffer lines, each behind a tag:
//
//   BOOTBENCH-KMSG begin
//   BOOTBENCH-KMSG first [    0.000000] Booting Linux on physical CPU 0x0000000000 ...
//   BOOTBENCH-KMSG [    0.061205] calling  pl011_init+0x0/0x48 @ 1
//   BOOTBENCH-KMSG [    0.063101] initcall pl011_init+0x0/0x48 returned 0 after 1866 usecs
//   BOOTBENCH-KMSG [    1.201455] Run /init as init process
//   BOOTBENCH-KMSG end
//
// A trace is only as good as its dump, so each boot's trace carries a state, and reports use
// the complete ones only: a ring buffer that no longer holds the boot's first line ("wrapped"),
// a dump that never reached its end line ("cut": the guest died or was stopped mid-dump), a
// dump with no initcall ("empty": a kernel whose initcall_debug does nothing).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

struct InitcallRecord {
    std::string name;          // the function, without its +offset/size
    std::string module;        // "" for a built-in initcall
    double start_s = 0;        // the kernel's clock at "calling"
    long long duration_us = 0; // as the kernel measured it (ktime, in "returned … after N usecs")
    int return_value = 0;
};

enum class InitcallTraceState { Complete, Wrapped, Cut, Empty };
std::string_view to_string(InitcallTraceState state);

class InitcallTrace {
  public:
    // One tagged line: what follows "BOOTBENCH-KMSG ".
    void feed(std::string_view line);

    bool began() const { return m_began; }
    // nullopt when no dump began (the boot was not traced).
    std::optional<InitcallTraceState> state() const;
    const std::vector<InitcallRecord>& records() const { return m_records; }
    // The kernel's clock when it started /init: the end of the kernel's own boot.
    std::optional<double> run_init_s() const { return m_run_init_s; }
    // Lines that were neither a call, a return, nor a marker of the dump, and returns with no
    // call before them: counted, never guessed at.
    int malformed() const { return m_malformed; }
    int unmatched() const { return m_unmatched; }

  private:
    void calling(double at, std::string_view rest);
    void returned(std::string_view rest);

    bool m_began = false;
    bool m_ended = false;
    std::optional<double> m_first_s;
    std::optional<double> m_run_init_s;
    std::vector<InitcallRecord> m_records;
    // Calls not yet returned: name and module → start. Initcalls run one at a time on one
    // thread, and a module's init likewise, so few are open at once.
    std::vector<InitcallRecord> m_open;
    int m_malformed = 0;
    int m_unmatched = 0;
};

} // namespace bb
