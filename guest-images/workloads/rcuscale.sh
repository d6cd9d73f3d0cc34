# Runs rcuscale (built as a module: kernels/fragments/rcuscale.config) after the boot marker,
# so only the boots that ask for it carry the load. Its parameters come from the kernel command
# line as rcuscale.NAME=VALUE (the matrix's cmdline axes); Linux ignores those itself because
# the module is not built in, so this script hands them to insmod.
#
# Defaults below come first; a command-line value for the same parameter overrides them.
#   holdoff=1     start one second after the load instead of ten
#   shutdown=0    this script, not rcuscale, decides when the guest powers off
params="holdoff=1 shutdown=0"
set -f # a value such as rcuscale.x=* must not expand to file names
for token in $(cat /proc/cmdline); do
  case "$token" in
    rcuscale.*) params="$params ${token#rcuscale.}" ;;
  esac
done
module=/lib/modules/rcuscale.ko
if [ ! -f "$module" ]; then
  echo "BOOTBENCH-ERROR rcuscale.ko is not in the image (is the kernel built with the rcuscale fragment?)"
  exit 1
fi
# rcuscale needs the torture framework, a module of its own when rcuscale is one (the Kconfig
# select makes it =m); busybox insmod resolves no dependencies.
if [ -f /lib/modules/torture.ko ] && ! grep -q "^torture " /proc/modules; then
  insmod /lib/modules/torture.ko || exit 1
fi
echo "rcuscale workload: insmod rcuscale.ko $params"
# shellcheck disable=SC2086 # one word per parameter
insmod "$module" $params || exit 1
# rcuscale prints "Test complete" once every writer has its measurements (minruntime).
while ! dmesg | grep -q "scale: Test complete"; do
  sleep 0.2
done
# Unloading prints the summary ("start: ... duration: ... gps: ... batches: ...") and one
# "writer-duration" line per recorded grace period.
rmmod rcuscale
# Whole-run rate from the summary line: time for 6,000 SRCU batches, the seed's count
# turned into a time. rcuscale's `batches` is srcu_batches_completed(): advances of
# srcu_idx, "correlated with, but not necessarily precisely the same as, the number of grace
# periods" (kernel/rcu/srcutree.c), so the metric names say batches, not GPs.
dmesg | awk '/ duration: / && / batches: / {
  for (i = 1; i <= NF; i++) {
    if ($i == "duration:") duration = $(i + 1)
    if ($i == "batches:") batches = $(i + 1)
  }
}
END {
  if (batches > 0) {
    printf "BOOTBENCH-METRIC srcu_batches_per_s %.1f 1/s\n", batches / (duration / 1e9)
    printf "BOOTBENCH-METRIC seconds_per_6000_batches %.4f s\n", 6000 * (duration / 1e9) / batches
  }
}'
