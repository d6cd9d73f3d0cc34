#pragma once
#include <string>

namespace bb {

// Width of the l1_srcu_exp_us histogram's buckets: a jiffy at HZ=1000 spans 20 of them, and the
// report re-buckets wider, never narrower.
constexpr int k_srcu_exp_bucket_us = 50;

// Per-CPU trace buffer L1 sets before its probes. The ring overwrites its oldest events when
// full, which the report sees only as fewer timed calls than counted ones (it says so). Measured:
// 4 MiB kept the last 4178 of 179696 calls of an EFI-variable storm (configs/srcu-efivar-pilot
// .yaml, fixed-full); 32 MiB per CPU (64 MiB of L1's 3 GiB) keeps the seed's ~6000 with room.
constexpr int k_l1_trace_buffer_kb = 32768;

// Shell (busybox sh) for L1's /init, run once tracefs is mounted at $tracing: enlarges the trace
// buffer and adds the SRCU kprobe/kretprobe events under the `bootbench` group. A probe the kernel
// refuses (a function inlined in this build) is named with its reason and left out: the report
// then says which metrics are not measured. Events that are only counted get a filter that drops
// every record, as kprobe_profile counts hits before filtering.
//
// Which probes: `All` of them, or only the `Calls` set — synchronize_srcu_expedited()'s entry and
// return (calls, their durations, time blocked) and the per-grace-period events (grace periods
// started, callback runs, delayed callback runs). The reader checks and process_srcu passes are
// left out there: on a preemptible host that polls for readers they fire hundreds of thousands
// of times per L2 boot (245 600 reader checks in one 67 s boot of stock-full at HZ 250), each a
// breakpoint exception in TCG-emulated L1, so they slow the polling kernel more than the
// sleeping one and bias a boot-time endpoint.
enum class L1Probes { All, Calls };
std::string l1_srcu_probe_setup(L1Probes probes = L1Probes::All);

// Shell for L1's /init, run with $kallsyms naming /proc/kallsyms: prints the metrics
// l1_has_free_bus and l1_has_call_srcu_expedited (1 or 0), whether L1's kernel has the functions
// that only kernels/patches/kvm-io-bus adds (__free_bus: 0004, 7d9a0273c459; call_srcu_expedited:
// 0006, the RFC), so every nested sample says which I/O-bus kernel it ran on.
std::string l1_kvm_io_bus_symbols();

// Busybox awk program that reads kprobe_profile before L2's run, kprobe_profile after it and
// the trace of the run (three file arguments, `-v width=<bucket µs>`), and prints the
// BOOTBENCH-METRIC/-HIST lines of L1's SRCU activity: entry and return of each
// synchronize_srcu_expedited() paired per pid, failed reader checks (try_check_zero() returning
// false), process_srcu passes, grace periods started, callback invocations and delayed
// queueings of the grace-period work; and, for KVM's I/O bus, kvm_io_bus_register_dev() and
// kvm_io_bus_unregister_dev() calls and the expedited calls (count, time blocked) whose caller
// was kvm_io_bus_register_dev, kvm_io_bus_unregister_dev or a memslot swap
// (kvm_swap_active_memslots or a memslot function it was inlined into).
std::string l1_srcu_report_awk();

} // namespace bb
