# Seed 003: app start-up times with mmap_lock contention (/bin/app_launch, compiled into the
# image from guest-images/programs/app_launch.c by the experiment's guest.programs), then
# optionally refscale as a micro-measure of the rwsem read side.
#
# Parameters from the kernel command line (Linux ignores unknown dotted parameters):
#   app_launch.scale=F    multiplies every profile's rounds (smoke runs: 0.25)
#   app_launch.repeat=N   launches per profile; the median is reported
#   app_launch.trace_mmap_lock=1
#                         also measure what mmap_lock readers wait for, per launch: the
#                         mmap_lock tracepoints (CONFIG_TRACING) time every read acquisition
#                         from mmap_lock_start_locking to mmap_lock_acquire_returned, spinning
#                         and sleeping alike. Tracing costs every lock operation a little, so an
#                         experiment turns it on for both arms of a comparison or for neither.
#   app_launch.calibrate=1
#                         bracket every launch with calibrations (one single-threaded app per
#                         CPU, no shared mmap_lock) and also report launch_relative.<profile>,
#                         the launch divided by them, and calibration_ms: the host's speed drifts
#                         between and within boots under TCG, and the ratio cancels the drift
#   refscale.NAME=VALUE   refscale module parameters; refscale runs only when scale_type is given
scale=1
repeat=1
trace_mmap_lock=0
calibrate=0
refscale_params=""
for token in $(cat /proc/cmdline); do
  case "$token" in
    app_launch.scale=*) scale=${token#*=} ;;
    app_launch.repeat=*) repeat=${token#*=} ;;
    app_launch.trace_mmap_lock=*) trace_mmap_lock=${token#*=} ;;
    app_launch.calibrate=*) calibrate=${token#*=} ;;
    refscale.*) refscale_params="$refscale_params ${token#refscale.}" ;;
  esac
done
if [ ! -x /bin/app_launch ]; then
  echo "BOOTBENCH-ERROR /bin/app_launch is not in the image (guest.programs)"
  exit 1
fi

# Lock event counters (fragment lock-events), as deltas over the launches: they show whether
# readers really spun (rwsem_opt_rlock exists only with a reader-spinning patch; rwsem_opt_rfail
# only with writer-only-spin; rwsem_opt_rlock2, rwsem_opt_norspin and rwsem_opt_wlock, which
# replaces rwsem_opt_lock, only with the seed series; rwsem_opt_rwake, rwsem_opt_norspin_unsaved,
# rwsem_opt_rspin_handoff and rwsem_opt_rlock_after_handoff only with seed-series-v3, one per
# deviation from the seed's v2). Counters a kernel lacks are not reported.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
counters=/sys/kernel/debug/lock_event_counts
snapshot() {
  for event in rwsem_opt_rlock rwsem_opt_rfail rwsem_opt_rlock2 rwsem_opt_norspin rwsem_opt_lock \
               rwsem_opt_wlock rwsem_opt_fail rwsem_opt_nospin rwsem_rlock rwsem_rlock_steal \
               rwsem_sleep_reader rwsem_sleep_writer rwsem_wlock rwsem_wlock_fail \
               rwsem_opt_rwake rwsem_opt_norspin_unsaved rwsem_opt_rspin_handoff \
               rwsem_opt_rlock_after_handoff; do
    if [ -r "$counters/$event" ]; then
      echo "$event $(cat "$counters/$event")"
    fi
  done
}
tracefs=/sys/kernel/tracing
# Read-side acquisitions only (write == 0); 16 MiB of buffer per CPU holds a full pass.
start_mmap_lock_trace() {
  mount -t tracefs nodev "$tracefs" 2>/dev/null
  if [ ! -d "$tracefs/events/mmap_lock" ]; then
    echo "BOOTBENCH-ERROR app_launch.trace_mmap_lock=1: the kernel has no mmap_lock trace events (CONFIG_TRACING)"
    exit 1
  fi
  echo 0 >"$tracefs/tracing_on"
  echo 16384 >"$tracefs/buffer_size_kb"
  : >"$tracefs/trace"
  for event in mmap_lock_start_locking mmap_lock_acquire_returned; do
    echo 'write == 0' >"$tracefs/events/mmap_lock/$event/filter" || exit 1
    echo 1 >"$tracefs/events/mmap_lock/$event/enable" || exit 1
  done
  echo 1 >"$tracefs/tracing_on"
}
# Per launch (between app_launch's markers): the summed wait of its read acquisitions, how many
# there were and how many waited over 100 us; per boot: the same over all launches, the longest
# wait, and the events the ring buffer dropped (a boot that lost any says so: its sums are low).
# A trylock has no start event and is skipped. Task names may hold spaces: the field before
# "[cpu]" is "comm-pid".
report_mmap_lock_trace() {
  echo 0 >"$tracefs/tracing_on"
  lost=$(cat "$tracefs"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
  echo "BOOTBENCH-METRIC mmap_lock_trace_lost $lost count"
  awk -v repeat="$repeat" '
    {
      event = ""
      for (i = 2; i < NF; i++) {
        if ($i ~ /^\[[0-9]+\]$/) task = $(i - 1)
        if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1) * 1e6; event = $(i + 1); break }
      }
    }
    event == "tracing_mark_write:" && $(i + 2) == "bootbench-launch" {
      profile = $(i + 4) == "begin" ? $(i + 3) : ""
      next
    }
    event == "mmap_lock_start_locking:" { start[task] = t; next }
    event == "mmap_lock_acquire_returned:" && (task in start) {
      wait = t - start[task]
      delete start[task]
      if (profile == "") next
      sum[profile] += wait; locks[profile]++; total += wait; count++
      if (wait > 100) { slow[profile]++; slow_total++ }
      if (wait > longest) longest = wait
    }
    END {
      for (p in sum) {
        printf "BOOTBENCH-METRIC mmap_lock_read_wait.%s %.1f us\n", p, sum[p] / repeat
        printf "BOOTBENCH-METRIC mmap_lock_read_locks.%s %.1f count\n", p, locks[p] / repeat
        printf "BOOTBENCH-METRIC mmap_lock_read_slow.%s %.1f count\n", p, slow[p] / repeat
      }
      printf "BOOTBENCH-METRIC mmap_lock_read_wait_us %.1f us\n", total
      printf "BOOTBENCH-METRIC mmap_lock_read_locks %d count\n", count
      printf "BOOTBENCH-METRIC mmap_lock_read_slow %d count\n", slow_total
      printf "BOOTBENCH-METRIC mmap_lock_read_wait_max_us %.1f us\n", longest
    }' "$tracefs/trace"
}

options=""
if [ "$trace_mmap_lock" = 1 ]; then
  start_mmap_lock_trace
  options=--trace-markers
fi
if [ "$calibrate" = 1 ]; then
  options="$options --calibrate"
fi
snapshot >/tmp/lockevents.before
# shellcheck disable=SC2086 # $options is one word per option
/bin/app_launch --scale "$scale" --repeat "$repeat" $options || exit 1
snapshot >/tmp/lockevents.after
if [ "$trace_mmap_lock" = 1 ]; then
  report_mmap_lock_trace
fi
awk 'NR == FNR { before[$1] = $2; next }
     { printf "BOOTBENCH-METRIC lockevent.%s %d count\n", $1, $2 - before[$1] }' \
  /tmp/lockevents.before /tmp/lockevents.after

case "$refscale_params" in
  *scale_type=*) ;;
  *) exit 0 ;;
esac
module=/lib/modules/refscale.ko
if [ ! -f "$module" ]; then
  echo "BOOTBENCH-ERROR refscale.ko is not in the image (is the kernel built with the refscale fragment?)"
  exit 1
fi
# refscale needs the torture framework, a module of its own here (busybox insmod resolves nothing).
if [ -f /lib/modules/torture.ko ] && ! grep -q "^torture " /proc/modules; then
  insmod /lib/modules/torture.ko || exit 1
fi
echo "refscale: insmod refscale.ko$refscale_params"
# shellcheck disable=SC2086 # one word per parameter
insmod "$module" $refscale_params || exit 1
while ! dmesg | grep -q "END OF TEST"; do
  sleep 0.2
done
# The results table follows "END OF TEST" in the same thread: unloading waits for it.
rmmod refscale
# "Runs<TAB>Time(ns)" then one "<run><TAB><ns per read-side section>" line per run.
type=$(echo "$refscale_params" | tr ' ' '\n' | sed -n 's/^scale_type=//p')
dmesg | awk -v type="$type" '
  /Runs[ \t]+Time\(ns\)/ { table = 1; next }
  table && $(NF - 1) ~ /^[0-9]+$/ && $NF ~ /^[0-9]+\.[0-9]+$/ { ns[++n] = $NF + 0 }
  END {
    if (n == 0) { print "BOOTBENCH-ERROR refscale: no results table"; exit 1 }
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (ns[j] < ns[i]) { t = ns[i]; ns[i] = ns[j]; ns[j] = t }
    printf "BOOTBENCH-METRIC refscale_%s_ns %.3f ns\n", type, ns[int((n + 1) / 2)]
    printf "BOOTBENCH-METRIC refscale_%s_ns_min %.3f ns\n", type, ns[1]
  }'
