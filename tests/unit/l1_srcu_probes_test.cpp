// L1's SRCU probes: the shell that adds them and the awk that turns their counts and trace into
// metrics, both run here with the host's busybox (the same applets as L1's). The trace and the
// kprobe_profile snapshots are canned excerpts in the kernel's formats (6.12 trace_kprobe.c
// print_kprobe_event/print_kretprobe_event and probes_profile_seq_show), not a live kernel.
#include "console/console_monitor.h"
#include "guest/l1_srcu_probes.h"
#include "guest/nested_init_script.h"
#include "test_support.h"
#include "util/run_command.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>

namespace {
using bb::test::k_busybox;
using bb::test::read_text;
using bb::test::require_busybox;
namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::write_bytes;

// The ten events as kprobe_profile lists them: name, hits, misses.
std::string profile(long exp, long exp_ret, long check, long passes, long gps, long cbs,
                    long queued, long registered = 0, long unregistered = 0) {
    return fmt::format("  {:<44} {:>15} {:>15}\n  {:<44} {:>15} {:>15}\n"
                       "  {:<44} {:>15} {:>15}\n  {:<44} {:>15} {:>15}\n"
                       "  {:<44} {:>15} {:>15}\n  {:<44} {:>15} {:>15}\n"
                       "  {:<44} {:>15} {:>15}\n  {:<44} {:>15} {:>15}\n"
                       "  {:<44} {:>15} {:>15}\n  {:<44} {:>15} {:>15}\n",
                       "srcu_exp", exp, 0, "srcu_exp_ret", exp_ret, 0, "srcu_check", check, 0,
                       "process_srcu", passes, 0, "srcu_gp_start", gps, 0, "srcu_invoke_cbs", cbs,
                       0, "srcu_delay_timer", 0, 0, "srcu_gp_queue", queued, 0, "kvm_iobus_reg",
                       registered, 0, "kvm_iobus_unreg", unregistered, 0);
}

// A run of four calls on two srcu_structs: kvm->srcu from a vCPU thread whose name holds a
// space, kvm->irq_srcu from qemu's main thread, overlapping; one call waits a jiffy (HZ=250)
// after a failed reader check; one pid's task name is not cached ("<...>"). kvm->srcu's
// grace-period work (0x...c1b00040) is queued with a delay twice, once before its first pass in
// the trace; another work's delayed queueing is not SRCU's.
constexpr const char* k_trace = R"(# tracer: nop
#
# entries-in-buffer/entries-written: 13/13   #P:2
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [001] d.s..    41.999000: srcu_gp_queue: (queue_delayed_work_on+0x0/0x90) dwork=0xffff0000c1b00040 delay=1
       CPU 0/KVM-231     [001] .....    41.999990: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
       CPU 0/KVM-231     [001] .....    42.000120: srcu_exp_ret: (kvm_swap_active_memslots+0x11c/0x1a0 <- synchronize_srcu_expedited)
       CPU 0/KVM-231     [000] .....    42.100000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
     kworker/1:1-30      [001] .....    42.100040: process_srcu: (process_srcu+0x0/0x4c0) work=0xffff0000c1b00040
     kworker/1:1-30      [001] .....    42.100050: srcu_check: (process_srcu+0x1c8/0x4c0 <- try_check_zero) ssp=0xffff0000c1a2d9e8 clear=0
     kworker/1:1-30      [001] .....    42.100060: srcu_gp_queue: (queue_delayed_work_on+0x0/0x90) dwork=0xffff0000c1b00040 delay=1
     kworker/0:2-31      [000] .....    42.150000: srcu_gp_queue: (queue_delayed_work_on+0x0/0x90) dwork=0xffff0000c0de0000 delay=25
 qemu-system-aar-230     [000] .....    42.100070: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2f000
       CPU 0/KVM-231     [000] d....    42.104100: srcu_exp_ret: (kvm_swap_active_memslots+0x11c/0x1a0 <- synchronize_srcu_expedited)
 qemu-system-aar-230     [001] .....    42.104170: srcu_exp_ret: (kvm_set_irq_routing+0x1c4/0x240 <- synchronize_srcu_expedited)
           <...>-231     [001] .....    42.200000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
     kworker/0:2-31      [000] .....    42.200010: srcu_check: (process_srcu+0x1c8/0x4c0 <- try_check_zero) ssp=0xffff000000abc000 clear=0
           <...>-231     [001] .....    42.200055: srcu_exp_ret: (kvm_set_memslot+0x50/0x300 <- synchronize_srcu_expedited)
)";

// An L2 boot's I/O-bus updates on stock 6.12 (both syncing): two registrations' expedited calls
// (30 and 60 µs), one unregistration's (a jiffy at HZ=100 behind a failed reader check) and a
// memslot swap inlined into kvm_activate_memslot (.isra suffix) as well as one out of line.
constexpr const char* k_io_bus_trace = R"(# tracer: nop
 qemu-system-aar-230     [000] .....    60.000000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
 qemu-system-aar-230     [000] .....    60.000030: srcu_exp_ret: (kvm_io_bus_register_dev+0x1b8/0x230 <- synchronize_srcu_expedited)
 qemu-system-aar-230     [000] .....    60.001000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
 qemu-system-aar-230     [000] .....    60.001060: srcu_exp_ret: (kvm_io_bus_register_dev+0x1b8/0x230 <- synchronize_srcu_expedited)
 qemu-system-aar-230     [001] .....    61.000000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
 qemu-system-aar-230     [001] .....    61.010000: srcu_exp_ret: (kvm_io_bus_unregister_dev+0xfc/0x1e0 <- synchronize_srcu_expedited)
       CPU 0/KVM-231     [000] .....    62.000000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
       CPU 0/KVM-231     [000] .....    62.000200: srcu_exp_ret: (kvm_activate_memslot.isra.0+0x40/0x90 <- synchronize_srcu_expedited)
       CPU 0/KVM-231     [000] .....    62.100000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8
       CPU 0/KVM-231     [000] .....    62.100300: srcu_exp_ret: (kvm_swap_active_memslots+0x11c/0x1a0 <- synchronize_srcu_expedited)
 qemu-system-aar-230     [001] .....    63.000000: srcu_exp: (synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2f000
 qemu-system-aar-230     [001] .....    63.000100: srcu_exp_ret: (kvm_set_irq_routing+0x1c4/0x240 <- synchronize_srcu_expedited)
)";

// Runs the report awk on the two profile snapshots and a trace, as L1's /init does.
std::string report(const std::string& before, const std::string& after, const std::string& trace) {
    require_busybox();
    const TempDir dir;
    write_bytes(dir / "report.awk", bb::l1_srcu_report_awk());
    write_bytes(dir / "before", before);
    write_bytes(dir / "after", after);
    write_bytes(dir / "trace", trace);
    const auto result = bb::run_command({k_busybox.string(), "awk", "-v",
                                         fmt::format("width={}", bb::k_srcu_exp_bucket_us), "-f",
                                         (dir / "report.awk").string(), (dir / "before").string(),
                                         (dir / "after").string(), (dir / "trace").string()});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return result.output;
}

bool has_line(const std::string& text, const std::string& line) {
    INFO(line);
    return text.find(line + "\n") != std::string::npos;
}
} // namespace

TEST_CASE("the report pairs each expedited call's entry and return per pid into a histogram",
          "[nested][srcu]") {
    const std::string out =
        report(profile(3, 3, 9, 5, 4, 4, 5), profile(7, 7, 19, 11, 8, 8, 11), k_trace);
    // 130, 4100 (a jiffy after the failed check), 4100 (the overlapping irq_srcu call) and 55 µs;
    // "000120" is 120 µs, not octal.
    CHECK(has_line(out, "BOOTBENCH-HIST l1_srcu_exp_us 50 100 1"));
    CHECK(has_line(out, "BOOTBENCH-HIST l1_srcu_exp_us 100 150 1"));
    CHECK(has_line(out, "BOOTBENCH-HIST l1_srcu_exp_us 4100 4150 2"));
    CHECK(has_line(out, "BOOTBENCH-METRIC srcu_expedited_calls 4 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_timed_calls 4 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_blocked_seconds 0.008385 s"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_max_us 4100 us"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_structs 2 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_busiest_calls 3 count"));
    CHECK(has_line(out, "bootbench: srcu_struct 0xffff0000c1a2d9e8: 3 expedited calls, 4285 us "
                        "blocked, 1 readers found, callers kvm_swap_active_memslots "
                        "kvm_set_memslot"));
    CHECK(has_line(out, "bootbench: srcu_struct 0xffff0000c1a2f000: 1 expedited calls, 4100 us "
                        "blocked, 0 readers found, callers kvm_set_irq_routing"));
    CHECK(has_line(out, "bootbench: srcu_struct 0xffff000000abc000: no expedited calls, 1 "
                        "readers found"));
    CHECK(out.find("calls timed") == std::string::npos); // nothing lost
}

TEST_CASE("the report counts reader checks, passes, grace periods and delayed GP work",
          "[nested][srcu]") {
    const std::string out =
        report(profile(3, 3, 9, 5, 4, 4, 5), profile(7, 7, 19, 11, 8, 8, 11), k_trace);
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_reader_checks 10 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_readers_found 2 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_process_srcu_passes 6 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_gps_started 4 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_cb_invocations 4 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_cb_delayed 0 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_gp_work_delayed 2 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_gp_work_delay_jiffies 2 jiffies"));
}

TEST_CASE("every line of the report is one the console monitor stores", "[nested][srcu]") {
    const std::string out =
        report(profile(3, 3, 9, 5, 4, 4, 5), profile(7, 7, 19, 11, 8, 8, 11), k_trace);
    bb::ConsoleMonitor monitor;
    monitor.feed(out, 1.0);
    CHECK(monitor.metrics().size() == 22);
    long long hist_total = 0;
    for (const auto& bucket : monitor.histograms()) {
        CHECK(bucket.name == "l1_srcu_exp_us");
        CHECK(bucket.hi - bucket.lo == bb::k_srcu_exp_bucket_us);
        hist_total += bucket.count;
    }
    CHECK(hist_total == 4);
    bool legacy = false;
    for (const auto& metric : monitor.metrics()) {
        legacy = legacy || metric.name == bb::k_srcu_expedited_metric;
    }
    CHECK(legacy);
}

TEST_CASE("the report counts I/O-bus (un)registrations and attributes expedited calls to them",
          "[nested][srcu][kvm-io-bus]") {
    const std::string out = report(profile(10, 10, 0, 0, 0, 0, 0, 5, 1),
                                   profile(16, 16, 0, 0, 0, 0, 0, 17, 2), k_io_bus_trace);
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_kvm_io_bus_register_calls 12 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_kvm_io_bus_unregister_calls 1 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_register_calls 2 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_register_blocked_seconds 0.000090 s"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_unregister_calls 1 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_unregister_blocked_seconds 0.010000 s"));
    // The .isra-suffixed inlined site and the out-of-line one; kvm_set_irq_routing is neither.
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_memslots_calls 2 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_memslots_blocked_seconds 0.000500 s"));
    CHECK(has_line(out, "BOOTBENCH-METRIC srcu_expedited_calls 6 count"));
}

TEST_CASE("a kernel that registers without syncing (7d9a0273c459) reports zero register syncs",
          "[nested][srcu][kvm-io-bus]") {
    const std::string trace =
        "       CPU 0/KVM-231     [000] .....    62.000000: srcu_exp: "
        "(synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8\n"
        "       CPU 0/KVM-231     [000] .....    62.010000: srcu_exp_ret: "
        "(kvm_swap_active_memslots+0x11c/0x1a0 <- synchronize_srcu_expedited)\n";
    const std::string out =
        report(profile(0, 0, 0, 0, 0, 0, 0, 0, 0), profile(1, 1, 0, 0, 0, 0, 0, 12, 0), trace);
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_kvm_io_bus_register_calls 12 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_register_calls 0 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_register_blocked_seconds 0.000000 s"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_memslots_calls 1 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_memslots_blocked_seconds 0.010000 s"));
}

TEST_CASE("a probe the kernel refused is reported as not measured, not as zero", "[nested][srcu]") {
    // This kernel inlined try_check_zero and has no return probe: only the entry counts.
    const std::string before = "  srcu_exp                 3 0\n  process_srcu 5 0\n";
    const std::string after = "  srcu_exp                 7 0\n  process_srcu 11 0\n";
    const std::string out = report(before, after, "");
    CHECK(has_line(out, "BOOTBENCH-METRIC srcu_expedited_calls 4 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_process_srcu_passes 6 count"));
    CHECK(has_line(out, "bootbench: l1_srcu_exp_* not measured: no entry and return probes on "
                        "synchronize_srcu_expedited"));
    CHECK(has_line(out, "bootbench: l1_srcu_reader_checks not measured: no probe on "
                        "try_check_zero"));
    CHECK(has_line(out, "bootbench: l1_srcu_readers_found not measured: no return probe on "
                        "try_check_zero"));
    CHECK(out.find("l1_srcu_readers_found 0") == std::string::npos);
    CHECK(out.find("BOOTBENCH-HIST") == std::string::npos);
    CHECK(out.find("l1_srcu_exp_timed_calls") == std::string::npos);
    CHECK(has_line(out, "bootbench: l1_kvm_io_bus_register_calls not measured: no probe on "
                        "kvm_io_bus_register_dev"));
    CHECK(has_line(out, "bootbench: l1_srcu_exp_register/unregister/memslots_* not measured: no "
                        "entry and return probes on synchronize_srcu_expedited"));
    CHECK(out.find("l1_srcu_exp_register_calls") == std::string::npos);
}

TEST_CASE("calls the trace lost are named, and a return without its entry is not timed",
          "[nested][srcu]") {
    const std::string trace =
        "CPU:1 [LOST 3 EVENTS]\n"
        "       CPU 0/KVM-231     [001] .....    50.000200: srcu_exp_ret: "
        "(kvm_swap_active_memslots+0x11c/0x1a0 <- synchronize_srcu_expedited)\n"
        "       CPU 0/KVM-231     [001] .....    50.001000: srcu_exp: "
        "(synchronize_srcu_expedited+0x0/0x2c) ssp=0xffff0000c1a2d9e8\n"
        "       CPU 0/KVM-231     [001] .....    50.001250: srcu_exp_ret: "
        "(kvm_swap_active_memslots+0x11c/0x1a0 <- synchronize_srcu_expedited)\n";
    const std::string out =
        report(profile(0, 0, 0, 0, 0, 0, 0), profile(3, 3, 6, 3, 3, 3, 3), trace);
    CHECK(has_line(out, "BOOTBENCH-METRIC srcu_expedited_calls 3 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_srcu_exp_timed_calls 1 count"));
    CHECK(has_line(out, "BOOTBENCH-HIST l1_srcu_exp_us 250 300 1"));
    CHECK(has_line(out, "bootbench: 1 of 3 synchronize_srcu_expedited() calls timed (3 trace "
                        "events lost, 0 returns missed)"));
}

TEST_CASE("the probe setup writes each definition verbatim and filters the counted events",
          "[nested][srcu]") {
    require_busybox();
    const TempDir dir;
    const fs::path tracing = dir / "tracing";
    for (const char* event : {"srcu_exp", "srcu_exp_ret", "srcu_check", "process_srcu",
                              "srcu_gp_start", "srcu_invoke_cbs", "srcu_delay_timer",
                              "srcu_gp_queue", "kvm_iobus_reg", "kvm_iobus_unreg"}) {
        fs::create_directories(tracing / "events" / "bootbench" / event);
    }
    write_bytes(tracing / "kprobe_events", "");
    write_bytes(dir / "setup.sh", "tracing=" + tracing.string() + "\n" + bb::l1_srcu_probe_setup());
    const auto result = bb::run_command({k_busybox.string(), "sh", (dir / "setup.sh").string()});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK(result.output.empty()); // every probe was taken
    CHECK(read_text(tracing / "buffer_size_kb") == fmt::format("{}\n", bb::k_l1_trace_buffer_kb));
    const std::string events = read_text(tracing / "kprobe_events");
    // The shell expanded neither $arg1 nor %x0.
    CHECK(has_line(events, "p:bootbench/srcu_exp synchronize_srcu_expedited ssp=%x0"));
    CHECK(has_line(events, "r:bootbench/srcu_exp_ret synchronize_srcu_expedited"));
    CHECK(has_line(events, "r:bootbench/srcu_check try_check_zero ssp=$arg1 clear=$retval:u8"));
    CHECK(has_line(events, "p:bootbench/srcu_gp_queue queue_delayed_work_on dwork=%x2 "
                           "delay=%x3:u64"));
    const fs::path bootbench = tracing / "events" / "bootbench";
    CHECK(read_text(bootbench / "srcu_check" / "filter") == "clear == 0\n");
    CHECK(read_text(bootbench / "srcu_gp_queue" / "filter") == "delay != 0\n");
    CHECK(read_text(bootbench / "srcu_gp_start" / "filter") == "common_pid < 0\n");
    CHECK(has_line(events, "p:bootbench/kvm_iobus_reg kvm_io_bus_register_dev"));
    CHECK(has_line(events, "p:bootbench/kvm_iobus_unreg kvm_io_bus_unregister_dev"));
    CHECK(read_text(bootbench / "kvm_iobus_reg" / "filter") == "common_pid < 0\n");
    CHECK(read_text(bootbench / "kvm_iobus_unreg" / "enable") == "1\n");
    CHECK_FALSE(fs::exists(bootbench / "srcu_exp" / "filter"));
    CHECK(read_text(bootbench / "srcu_exp" / "enable") == "1\n");
    CHECK(read_text(bootbench / "srcu_delay_timer" / "enable") == "1\n");
}

TEST_CASE("a probe whose event cannot be enabled is removed again and named", "[nested][srcu]") {
    require_busybox();
    const TempDir dir;
    const fs::path tracing = dir / "tracing";
    // No events directory: every enable fails, as when the kernel did not create the event.
    fs::create_directories(tracing);
    write_bytes(tracing / "kprobe_events", "");
    write_bytes(dir / "setup.sh", "tracing=" + tracing.string() + "\n" + bb::l1_srcu_probe_setup());
    const auto result = bb::run_command({k_busybox.string(), "sh", (dir / "setup.sh").string()});
    INFO(result.output);
    CHECK(result.output.find("bootbench: no probe srcu_check on try_check_zero: ") !=
          std::string::npos);
    CHECK(has_line(read_text(tracing / "kprobe_events"), "-:bootbench/srcu_check"));
}

namespace {
// Runs the kallsyms check on a canned kallsyms (or none), as L1's /init does.
std::string symbols_check(const std::string* kallsyms) {
    require_busybox();
    const TempDir dir;
    if (kallsyms != nullptr) {
        write_bytes(dir / "kallsyms", *kallsyms);
    }
    // The check runs with L1's busybox applets on PATH; here the host's busybox provides them.
    const fs::path bin = dir / "bin";
    fs::create_directories(bin);
    for (const char* applet : {"grep", "awk"}) {
        fs::create_symlink(k_busybox, bin / applet);
    }
    write_bytes(dir / "check.sh", "PATH=" + bin.string() +
                                      "\nkallsyms=" + (dir / "kallsyms").string() + "\n" +
                                      bb::l1_kvm_io_bus_symbols());
    const auto result = bb::run_command({k_busybox.string(), "sh", (dir / "check.sh").string()});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return result.output;
}
} // namespace

TEST_CASE("L1 says which I/O-bus patches its kernel has from kallsyms", "[nested][kvm-io-bus]") {
    // callsrcu (0001-0004): __free_bus but no call_srcu_expedited; names that only contain or
    // prefix the symbols, and a module's symbol, do not count.
    const std::string callsrcu = "ffff800080a1b2c0 t __free_bus\n"
                                 "ffff800080a1b300 T call_srcu\n"
                                 "ffff800080a1b340 t call_srcu_expedited_x\n"
                                 "ffff800080a1b380 t my__free_bus\n"
                                 "ffff800000c0ffee t call_srcu_expedited\t[some_module]\n";
    std::string out = symbols_check(&callsrcu);
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_has_free_bus 1 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_has_call_srcu_expedited 0 count"));
    const std::string expedited = callsrcu + "ffff800080a1b3c0 T call_srcu_expedited\n";
    out = symbols_check(&expedited);
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_has_free_bus 1 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_has_call_srcu_expedited 1 count"));
    const std::string stock = "ffff800080a1b300 T call_srcu\n";
    out = symbols_check(&stock);
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_has_free_bus 0 count"));
    CHECK(has_line(out, "BOOTBENCH-METRIC l1_has_call_srcu_expedited 0 count"));
    out = symbols_check(nullptr);
    CHECK(out.find("BOOTBENCH-METRIC") == std::string::npos);
    CHECK(out.find("which I/O-bus patches it has is not measured") != std::string::npos);
}
