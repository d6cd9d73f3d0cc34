# Seed 003: app start-up times with mmap_lock contention (/bin/app_launch, compiled into the
# image from guest-images/programs/app_launch.c by the experiment's guest.programs), then
# optionally refscale as a micro-measure of the rwsem read side.
#
# Parameters from the kernel command line (Linux ignores unknown dotted parameters):
#   app_launch.scale=F    multiplies every profile's rounds (smoke runs: 0.25)
#   app_launch.repeat=N   launches per profile; the median is reported
#   refscale.NAME=VALUE   refscale module parameters; refscale runs only when scale_type is given
scale=1
repeat=1
refscale_params=""
for token in $(cat /proc/cmdline); do
  case "$token" in
    app_launch.scale=*) scale=${token#*=} ;;
    app_launch.repeat=*) repeat=${token#*=} ;;
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
# replaces rwsem_opt_lock, only with the seed series). Counters a kernel lacks are not reported.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
counters=/sys/kernel/debug/lock_event_counts
snapshot() {
  for event in rwsem_opt_rlock rwsem_opt_rfail rwsem_opt_rlock2 rwsem_opt_norspin rwsem_opt_lock \
               rwsem_opt_wlock rwsem_opt_fail rwsem_opt_nospin rwsem_rlock rwsem_rlock_steal \
               rwsem_sleep_reader rwsem_sleep_writer rwsem_wlock; do
    if [ -r "$counters/$event" ]; then
      echo "$event $(cat "$counters/$event")"
    fi
  done
}
snapshot >/tmp/lockevents.before
/bin/app_launch --scale "$scale" --repeat "$repeat" || exit 1
snapshot >/tmp/lockevents.after
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
