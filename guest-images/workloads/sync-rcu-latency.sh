# Seed 002: 64 threads calling synchronize_rcu() back to back, every call timed, by
# /bin/sync_rcu_latency (guest-images/programs/sync_rcu_latency.c, compiled into the image by the
# experiment's guest.programs). It prints the latency histogram (BOOTBENCH-HIST sync_rcu_us) and
# sync_rcu_us_p50/_p90/_p99 itself.
#
# Its options come from the kernel command line as sync_rcu.NAME=VALUE (Linux ignores unknown
# dotted parameters), so they can be matrix axes: threads, seconds, bucket_us, split.
#
# sync_rcu.split=1 splits every call's latency into its three parts, which is where the seed's
# parameter acts: the wait for the next grace period to start, the grace period itself, and the
# step from its end to the caller running again (by default a callback, wakeme_after_rcu, has to
# be invoked first; with rcu_normal_wake_from_gp the GP kthread wakes the caller itself). Kprobe
# events on rcu_gp_init (entry, and its return value: 1 when a GP started) and rcu_gp_cleanup
# (entry: the GP kthread saw the GP end) are traced on the "mono" clock, the program writes each
# call's start and end on CLOCK_MONOTONIC, and each call is given the first GP that started after
# it. Per boot: sync_rcu_{wait_start,gp,wake_step}_us_{p50,p90,p99}, sync_rcu_split_calls (calls
# split) and sync_rcu_split_unmatched (calls whose GP ended after they returned or never ended in
# the trace: an expedited GP, or a call that raced a GP's start). Kprobes cost every GP a little:
# an experiment splits every boot of a comparison or none.
#
# sync_rcu.cb_load=N runs /bin/rcu_cb_load with N threads beside the callers (it must be in the
# image: guest.programs): file create/unlink churn, each freed inode and dentry an RCU callback,
# the busy system the seed measured, in which callback invocation runs late. 0: no load.
#
# sync_rcu.pause_ms=P makes each caller sleep P ms after each call (0, the default: back to back,
# as the seed ran). Sporadic callers are the condition in which a lazy kernel (CONFIG_RCU_LAZY,
# offloaded callbacks) lets a CPU's lazy callbacks pile up between two of its calls; the caller's
# own callback then flushes them ahead of itself (docs/research/seed002-wake-step.md, C1).
threads=64
seconds=5
bucket_us=10000
split=0
cb_load=0
pause_ms=0
for token in $(cat /proc/cmdline); do
  case "$token" in
    sync_rcu.threads=*) threads=${token#*=} ;;
    sync_rcu.seconds=*) seconds=${token#*=} ;;
    sync_rcu.bucket_us=*) bucket_us=${token#*=} ;;
    sync_rcu.split=*) split=${token#*=} ;;
    sync_rcu.cb_load=*) cb_load=${token#*=} ;;
    sync_rcu.pause_ms=*) pause_ms=${token#*=} ;;
  esac
done
if [ ! -x /bin/sync_rcu_latency ]; then
  echo "BOOTBENCH-ERROR /bin/sync_rcu_latency is not in the image (guest.programs)"
  exit 1
fi
# The setting under test as the running kernel has it: a command-line value, the stock default
# (0) or what the auto-enable patch decided at boot.
wake=/sys/module/rcutree/parameters/rcu_normal_wake_from_gp
if [ -r "$wake" ]; then
  echo "BOOTBENCH-METRIC rcu_normal_wake_from_gp $(cat "$wake") flag"
fi
# Callback offloading as the running kernel has it (rcu_nocbs=, CONFIG_RCU_NOCB_CPU): the rcuo
# kthreads (rcuop/N invokes CPU N's callbacks, rcuog/N wakes its group's); 0 when callbacks are
# invoked in softirq as stock does.
rcuo=0
for comm in /proc/[0-9]*/comm; do
  case "$(cat "$comm" 2>/dev/null)" in rcuo*) rcuo=$((rcuo + 1)) ;; esac
done
echo "BOOTBENCH-METRIC rcu_nocb_kthreads $rcuo count"
# Lazy callbacks as the running kernel has them (CONFIG_RCU_LAZY, rcutree.enable_rcu_lazy, a bool
# that sysfs prints as Y or N); the file is absent from a kernel built without them.
lazy=/sys/module/rcutree/parameters/enable_rcu_lazy
if [ -r "$lazy" ]; then
  case "$(cat "$lazy")" in
    Y) echo "BOOTBENCH-METRIC rcu_lazy 1 flag" ;;
    *) echo "BOOTBENCH-METRIC rcu_lazy 0 flag" ;;
  esac
fi
tracefs=/sys/kernel/tracing
start_gp_trace() {
  mount -t tracefs nodev "$tracefs" 2>/dev/null
  if [ ! -w "$tracefs/kprobe_events" ]; then
    echo "BOOTBENCH-ERROR sync_rcu.split=1: no kprobe events (CONFIG_KPROBE_EVENTS, tracefs)"
    exit 1
  fi
  echo 0 >"$tracefs/tracing_on"
  echo mono >"$tracefs/trace_clock" || exit 1
  echo 8192 >"$tracefs/buffer_size_kb"
  : >"$tracefs/trace"
  {
    echo 'p:bbgp/init rcu_gp_init'
    # shellcheck disable=SC2016 # $retval is kprobe syntax, not the shell's
    echo 'r:bbgp/init_ret rcu_gp_init ret=$retval'
    echo 'p:bbgp/cleanup rcu_gp_cleanup'
  } >>"$tracefs/kprobe_events" || {
    echo "BOOTBENCH-ERROR sync_rcu.split=1: the kernel refused a kprobe on rcu_gp_init or rcu_gp_cleanup"
    exit 1
  }
  echo 1 >"$tracefs/events/bbgp/enable"
  echo 1 >"$tracefs/tracing_on"
}
# One "start end" line per grace period (µs on the mono clock), from the trace.
grace_periods() {
  awk '
    {
      for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
      t = substr($i, 1, length($i) - 1) * 1e6
      event = $(i + 1)
    }
    event == "init:" { pending = t }
    event == "init_ret:" && $NF == "ret=0x1" { start = pending; open = 1 }
    event == "cleanup:" && open { printf "%.1f %.1f\n", start, t; open = 0 }
  ' "$tracefs/trace"
}
# Joins the calls (sorted by start, ns) with the grace periods; writes one value per line into
# /tmp/split.{wait_start,gp,wake_step} and prints the counts.
split_calls() {
  awk -v gps=/tmp/gps.txt '
    BEGIN { while ((getline line < gps) > 0) { split(line, f, " "); s[n] = f[1]; e[n] = f[2]; n++ } }
    {
      call = $1 / 1000; back = $2 / 1000
      while (g < n && s[g] <= call) g++
      if (g == n || e[g] > back) { unmatched++; next }
      print s[g] - call > "/tmp/split.wait_start"
      print e[g] - s[g] > "/tmp/split.gp"
      print back - e[g] > "/tmp/split.wake_step"
      matched++
    }
    END {
      printf "BOOTBENCH-METRIC sync_rcu_split_calls %d count\n", matched
      printf "BOOTBENCH-METRIC sync_rcu_split_unmatched %d count\n", unmatched
      printf "BOOTBENCH-METRIC sync_rcu_split_gps %d count\n", n
    }' /tmp/calls.txt
}
# Nearest-rank p50, p90 and p99 of one part.
report_part() { # part
  sort -n "/tmp/split.$1" | awk -v name="sync_rcu_$1_us" '
    { v[++n] = $1 }
    END {
      if (n == 0) exit
      split("50 90 99", ps, " ")
      for (k = 1; k <= 3; k++) {
        r = int((ps[k] * n + 99) / 100); if (r < 1) r = 1
        printf "BOOTBENCH-METRIC %s_p%d %.1f us\n", name, ps[k], v[r]
      }
    }'
}

echo "sync-rcu-latency workload: $threads threads, $seconds s, $bucket_us us buckets, callback load $cb_load, pause $pause_ms ms"
echo "BOOTBENCH-METRIC sync_rcu_cb_load_threads $cb_load count"
echo "BOOTBENCH-METRIC sync_rcu_pause_ms $pause_ms ms"
pause_option=""
[ "$pause_ms" = 0 ] || pause_option="--pause-ms $pause_ms"
load_pid=""
if [ "$cb_load" != 0 ]; then
  if [ ! -x /bin/rcu_cb_load ]; then
    echo "BOOTBENCH-ERROR sync_rcu.cb_load=$cb_load: /bin/rcu_cb_load is not in the image (guest.programs)"
    exit 1
  fi
  # Ends at SIGTERM after the callers; the time limit only guards against a lost signal.
  /bin/rcu_cb_load --threads "$cb_load" --seconds $((seconds + 60)) &
  load_pid=$!
  sleep 0.5
fi
stop_load() {
  [ -n "$load_pid" ] || return 0
  kill -TERM "$load_pid" && wait "$load_pid"
}
if [ "$split" = 1 ]; then
  start_gp_trace
  # shellcheck disable=SC2086 # $pause_option is empty or two words
  /bin/sync_rcu_latency --threads "$threads" --seconds "$seconds" --bucket-us "$bucket_us" \
    $pause_option --calls-file /tmp/calls.txt || exit 1
  echo 0 >"$tracefs/tracing_on"
  stop_load || exit 1
  lost=$(cat "$tracefs"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
  echo "BOOTBENCH-METRIC sync_rcu_split_trace_lost $lost count"
  grace_periods >/tmp/gps.txt
  : >/tmp/split.wait_start; : >/tmp/split.gp; : >/tmp/split.wake_step
  split_calls
  for part in wait_start gp wake_step; do report_part "$part"; done
else
  # shellcheck disable=SC2086 # $pause_option is empty or two words
  /bin/sync_rcu_latency --threads "$threads" --seconds "$seconds" --bucket-us "$bucket_us" \
    $pause_option || exit 1
  stop_load || exit 1
fi
