# Seed 002: 64 threads calling synchronize_rcu() back to back, every call timed, by
# /bin/sync_rcu_latency (guest-images/programs/sync_rcu_latency.c, compiled into the image by the
# experiment's guest.programs). It prints the latency histogram (BOOTBENCH-HIST sync_rcu_us) and
# sync_rcu_us_p50/_p90/_p99 itself.
#
# Its options come from the kernel command line as sync_rcu.NAME=VALUE (Linux ignores unknown
# dotted parameters), so they can be matrix axes: threads, seconds, bucket_us.
threads=64
seconds=5
bucket_us=10000
for token in $(cat /proc/cmdline); do
  case "$token" in
    sync_rcu.threads=*) threads=${token#*=} ;;
    sync_rcu.seconds=*) seconds=${token#*=} ;;
    sync_rcu.bucket_us=*) bucket_us=${token#*=} ;;
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
echo "sync-rcu-latency workload: $threads threads, $seconds s, $bucket_us us buckets"
/bin/sync_rcu_latency --threads "$threads" --seconds "$seconds" --bucket-us "$bucket_us"
