#include "guest/l1_srcu_probes.h"

#include <array>
#include <fmt/format.h>

namespace bb {

namespace {
struct SrcuProbe {
    const char* event;
    const char* function;
    bool per_call; // fires about once per call or grace period (the Calls set)
    // Records worth keeping in the trace buffer; k_drop_all for events that are only counted.
    const char* filter;
    const char* definition;
};

constexpr const char* k_keep_all = "";
constexpr const char* k_drop_all = "common_pid < 0";

// The functions exist as symbols in the 6.12 arm64 builds (System.map) without a .isra or
// .constprop suffix, so their arguments sit where the ABI puts them. try_check_zero() returns
// true when the readers of one index are gone: a false return is a reader check that gave up
// (after one or two looks 5 µs apart) and leaves the grace period for a later process_srcu pass.
// SRCU's grace-period work is a delayed_work whose work_struct comes first, so process_srcu's
// argument is the address queue_delayed_work_on() gets: the report keeps the delayed queueings
// of any work in the system and counts those of an address process_srcu ran with. srcu_reschedule()
// cannot tell this itself: it is called with SRCU_INTERVAL after the last grace period too, when
// it queues nothing.
// kvm_io_bus_register_dev() and kvm_io_bus_unregister_dev() are exported, so never only inlined:
// their entries count the I/O-bus registrations of L2's run (issue 34, kernels/patches/kvm-io-bus).
// Which of their synchronize_srcu_expedited() calls block, and for how long, the return probe of
// synchronize_srcu_expedited() says by its caller.
constexpr std::array<SrcuProbe, 10> k_probes{{
    {"srcu_exp", "synchronize_srcu_expedited", true, k_keep_all,
     "p:bootbench/srcu_exp synchronize_srcu_expedited ssp=%x0"},
    {"srcu_exp_ret", "synchronize_srcu_expedited", true, k_keep_all,
     "r:bootbench/srcu_exp_ret synchronize_srcu_expedited"},
    {"srcu_check", "try_check_zero", false, "clear == 0",
     "r:bootbench/srcu_check try_check_zero ssp=$arg1 clear=$retval:u8"},
    {"process_srcu", "process_srcu", false, k_keep_all,
     "p:bootbench/process_srcu process_srcu work=%x0"},
    {"srcu_gp_start", "srcu_gp_start", true, k_drop_all, "p:bootbench/srcu_gp_start srcu_gp_start"},
    {"srcu_invoke_cbs", "srcu_invoke_callbacks", true, k_drop_all,
     "p:bootbench/srcu_invoke_cbs srcu_invoke_callbacks"},
    {"srcu_delay_timer", "srcu_delay_timer", true, k_drop_all,
     "p:bootbench/srcu_delay_timer srcu_delay_timer"},
    {"srcu_gp_queue", "queue_delayed_work_on", false, "delay != 0",
     "p:bootbench/srcu_gp_queue queue_delayed_work_on dwork=%x2 delay=%x3:u64"},
    {"kvm_iobus_reg", "kvm_io_bus_register_dev", true, k_drop_all,
     "p:bootbench/kvm_iobus_reg kvm_io_bus_register_dev"},
    {"kvm_iobus_unreg", "kvm_io_bus_unregister_dev", true, k_drop_all,
     "p:bootbench/kvm_iobus_unreg kvm_io_bus_unregister_dev"},
}};

// Functions that only the I/O-bus series adds (no other 6.12.118 source file names them):
// __free_bus (0004, 7d9a0273c459's deferred free) and call_srcu_expedited (0006, the RFC), with
// the metric that says whether L1's kernel has each.
struct KernelSymbol {
    const char* symbol;
    const char* metric;
};
constexpr std::array<KernelSymbol, 2> k_io_bus_symbols{{
    {"__free_bus", "l1_has_free_bus"},
    {"call_srcu_expedited", "l1_has_call_srcu_expedited"},
}};
} // namespace

std::string l1_srcu_probe_setup(L1Probes probes) {
    std::string script = fmt::format(
        R"sh(if [ -f $tracing/kprobe_events ]; then
  echo {buffer_kb} > $tracing/buffer_size_kb
else
  echo "bootbench: no $tracing/kprobe_events in L1 (CONFIG_KPROBE_EVENTS?): SRCU metrics not measured"
fi
# probe EVENT FUNCTION FILTER DEFINITION: adds and enables one event, or says why not.
probe() {{
  if echo "$4" >> $tracing/kprobe_events 2>/dev/null; then
    [ -z "$3" ] || echo "$3" > $tracing/events/bootbench/$1/filter
    echo 1 > $tracing/events/bootbench/$1/enable && return 0
    echo "-:bootbench/$1" >> $tracing/kprobe_events
  fi
  if grep -q " $2\$" /proc/kallsyms 2>/dev/null; then
    why="the kernel refused it: $(grep error: $tracing/error_log 2>/dev/null | tail -n 1)"
  else
    why="no symbol $2 in /proc/kallsyms (inlined or absent in this build)"
  fi
  echo "bootbench: no probe $1 on $2: $why"
}}
)sh",
        fmt::arg("buffer_kb", k_l1_trace_buffer_kb));
    for (const SrcuProbe& probe : k_probes) {
        if (probes == L1Probes::Calls && !probe.per_call) {
            continue;
        }
        script += fmt::format("probe {} {} '{}' '{}'\n", probe.event, probe.function, probe.filter,
                              probe.definition);
    }
    return script;
}

std::string l1_kvm_io_bus_symbols() {
    std::string pattern;
    for (const KernelSymbol& entry : k_io_bus_symbols) {
        pattern += (pattern.empty() ? "" : "|") + std::string(entry.symbol);
    }
    // One pass over kallsyms (tens of thousands of lines, slow in TCG-emulated L1).
    std::string script = fmt::format(
        R"sh(if [ -r $kallsyms ]; then
  io_bus_symbols=" $(grep -E ' ({})$' $kallsyms | awk '{{ printf "%s ", $3 }}')"
)sh",
        pattern);
    for (const KernelSymbol& entry : k_io_bus_symbols) {
        script += fmt::format(R"sh(  case "$io_bus_symbols" in *" {0} "*) has=1 ;; *) has=0 ;; esac
  echo "BOOTBENCH-METRIC {1} $has count"
)sh",
                              entry.symbol, entry.metric);
    }
    script += R"sh(else
  echo "bootbench: no $kallsyms in L1: which I/O-bus patches it has is not measured"
fi
)sh";
    return script;
}

std::string l1_srcu_report_awk() {
    // Busybox awk: no length(array), no gawk extensions. The trace's task column may hold spaces
    // (qemu's vCPU threads are "CPU 0/KVM"), so fields are found by shape: "[cpu]", then the
    // "seconds.micros:" timestamp, the event name and its arguments. Leading zeros go before
    // arithmetic: busybox awk reads "000120" as octal.
    return R"awk(function metric(name, value, unit) {
  printf "BOOTBENCH-METRIC %s %s %s\n", name, value, unit
}
function counted(event, name, fn) {
  if (event in after) {
    metric(name, after[event] - before[event], "count")
    return 1
  }
  printf "bootbench: %s not measured: no probe on %s\n", name, fn
  return 0
}
# Which kvm->srcu update a synchronize_srcu_expedited() return came back to: an I/O-bus
# registration, an unregistration, or a memslot swap (kvm_swap_active_memslots(), static, or a
# memslot function it was inlined into); "" for any other caller. ".isra.0"-style suffixes go.
function sync_site(caller,   c) {
  c = caller
  sub(/\..*/, "", c)
  if (c == "kvm_io_bus_register_dev") return "register"
  if (c == "kvm_io_bus_unregister_dev") return "unregister"
  if (c ~ /^kvm_(swap_active_memslots|activate_memslot|invalidate_memslot|create_memslot|delete_memslot|move_memslot|update_flags_memslot|set_memslot)$/ || c == "__kvm_set_memory_region") return "memslots"
  return ""
}
function arg(name,   i) {
  for (i = t + 2; i <= n; i++)
    if (index(f[i], name "=") == 1) return substr(f[i], length(name) + 2)
  return ""
}
FILENAME == ARGV[1] { sub(/^bootbench\//, "", $1); before[$1] = $2; before_missed[$1] = $3; next }
FILENAME == ARGV[2] { sub(/^bootbench\//, "", $1); after[$1] = $2; missed[$1] = $3 - before_missed[$1]; next }
/\[LOST [0-9]+ EVENTS\]/ { match($0, /LOST [0-9]+/); lost += substr($0, RSTART + 5, RLENGTH - 5); next }
{
  n = split($0, f, " ")
  for (k = 2; k < n && f[k] !~ /^\[[0-9]+\]$/; k++) ;
  if (k >= n) next
  pid = f[k - 1]
  sub(/.*-/, "", pid)
  for (t = k + 1; t < n && f[t] !~ /^[0-9]+\.[0-9]+:$/; t++) ;
  if (t >= n) next
  split(f[t], p, /[.:]/)
  frac = substr(p[2] "000000", 1, 6)
  sub(/^0+/, "", p[1])
  sub(/^0+/, "", frac)
  us = p[1] * 1000000 + frac
  event = f[t + 1]
  sub(/:$/, "", event)
}
event == "srcu_exp" { start[pid] = us; ssp_of[pid] = arg("ssp"); next }
event == "srcu_exp_ret" && (pid in start) {
  d = us - start[pid]
  ssp = ssp_of[pid]
  delete start[pid]
  caller = f[t + 2]
  sub(/^\(/, "", caller)
  sub(/\+.*/, "", caller)
  timed++
  blocked += d
  if (d > max) max = d
  h[int(d / width)]++
  if (!(ssp in calls)) { structs++; ssps[structs] = ssp }
  calls[ssp]++
  ssp_blocked[ssp] += d
  if (!((ssp, caller) in by_caller)) callers[ssp] = callers[ssp] " " caller
  by_caller[ssp, caller]++
  site = sync_site(caller)
  if (site != "") { site_calls[site]++; site_blocked[site] += d }
  next
}
event == "srcu_check" && arg("clear") == 0 {
  found++
  ssp_found[arg("ssp")]++
  next
}
event == "process_srcu" { gp_work[arg("work")] = 1; next }
event == "srcu_gp_queue" && arg("delay") + 0 > 0 { queued++; queued_work[queued] = arg("dwork"); queued_delay[queued] = arg("delay"); next }
END {
  lo = -1
  for (b in h) {
    if (lo < 0 || b + 0 < lo) lo = b + 0
    if (b + 0 > hi) hi = b + 0
  }
  for (b = lo; lo >= 0 && b <= hi; b++)
    if (b in h) printf "BOOTBENCH-HIST l1_srcu_exp_us %d %d %d\n", b * width, (b + 1) * width, h[b]
  counted("srcu_exp", "srcu_expedited_calls", "synchronize_srcu_expedited")
  if (("srcu_exp" in after) && ("srcu_exp_ret" in after)) {
    metric("l1_srcu_exp_timed_calls", timed + 0, "count")
    metric("l1_srcu_exp_blocked_seconds", sprintf("%.6f", blocked / 1000000), "s")
    metric("l1_srcu_exp_max_us", max + 0, "us")
    metric("l1_srcu_exp_structs", structs + 0, "count")
    for (i = 1; i <= structs; i++) if (calls[ssps[i]] > busiest) busiest = calls[ssps[i]]
    metric("l1_srcu_exp_busiest_calls", busiest + 0, "count")
    total = after["srcu_exp"] - before["srcu_exp"]
    if (timed != total || lost > 0 || missed["srcu_exp_ret"] > 0)
      printf "bootbench: %d of %d synchronize_srcu_expedited() calls timed (%d trace events lost, %d returns missed)\n", timed, total, lost, missed["srcu_exp_ret"]
  } else {
    print "bootbench: l1_srcu_exp_* not measured: no entry and return probes on synchronize_srcu_expedited"
  }
  for (i = 1; i <= structs; i++) {
    s = ssps[i]
    printf "bootbench: srcu_struct %s: %d expedited calls, %.0f us blocked, %d readers found, callers%s\n", s, calls[s], ssp_blocked[s], ssp_found[s], callers[s]
  }
  counted("kvm_iobus_reg", "l1_kvm_io_bus_register_calls", "kvm_io_bus_register_dev")
  counted("kvm_iobus_unreg", "l1_kvm_io_bus_unregister_calls", "kvm_io_bus_unregister_dev")
  if (("srcu_exp" in after) && ("srcu_exp_ret" in after)) {
    split("register unregister memslots", sites, " ")
    for (i = 1; i <= 3; i++) {
      metric("l1_srcu_exp_" sites[i] "_calls", site_calls[sites[i]] + 0, "count")
      metric("l1_srcu_exp_" sites[i] "_blocked_seconds", sprintf("%.6f", site_blocked[sites[i]] / 1000000), "s")
    }
  } else {
    print "bootbench: l1_srcu_exp_register/unregister/memslots_* not measured: no entry and return probes on synchronize_srcu_expedited"
  }
  for (s in ssp_found)
    if (!(s in calls)) printf "bootbench: srcu_struct %s: no expedited calls, %d readers found\n", s, ssp_found[s]
  if (counted("srcu_check", "l1_srcu_reader_checks", "try_check_zero"))
    metric("l1_srcu_readers_found", found + 0, "count")
  else
    print "bootbench: l1_srcu_readers_found not measured: no return probe on try_check_zero"
  counted("process_srcu", "l1_process_srcu_passes", "process_srcu")
  counted("srcu_gp_start", "l1_srcu_gps_started", "srcu_gp_start")
  counted("srcu_invoke_cbs", "l1_srcu_cb_invocations", "srcu_invoke_callbacks")
  counted("srcu_delay_timer", "l1_srcu_cb_delayed", "srcu_delay_timer")
  if (("srcu_gp_queue" in after) && ("process_srcu" in after)) {
    for (i = 1; i <= queued; i++)
      if (queued_work[i] in gp_work) { delayed++; delayed_jiffies += queued_delay[i] }
    metric("l1_srcu_gp_work_delayed", delayed + 0, "count")
    metric("l1_srcu_gp_work_delay_jiffies", delayed_jiffies + 0, "jiffies")
  } else {
    print "bootbench: l1_srcu_gp_work_delayed not measured: no probes on process_srcu and queue_delayed_work_on"
  }
}
)awk";
}

} // namespace bb
