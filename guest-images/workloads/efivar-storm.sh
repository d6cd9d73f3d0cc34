# Seed 000's host-side load, from inside the guest: /bin/efivar_storm
# (guest-images/programs/efivar_storm.c, in the image through guest.programs) rewrites one EFI
# variable through efivarfs. Each SetVariable() programs the firmware's NOR-flash variable store;
# on arm64 every program/erase sequence is a KVM memslot change on the host, i.e. a
# synchronize_srcu_expedited() in L1 (topology nested). The host stores the time between the
# program's efivar-storm-start and -end markers as efivar_storm_seconds.
#
# Settings from the kernel command line (dotted words Linux ignores; /init leaves them to us):
#   efivar_storm.writes=N   SetVariable() calls (default 48: a 4 KiB variable rewritten 60
#                           times fills the 256 KiB store, and the firmware reclaims it only at
#                           boot, never at run time: further writes fail with ENOSPC)
#   efivar_storm.bytes=B    data bytes per call, 16..7000 (default 4096)
# Needs efivarfs: built in, or /lib/modules/efivarfs.ko (experiment: nested.l2_modules).
writes=48
bytes=4096
for token in $(cat /proc/cmdline); do
  case "$token" in
    efivar_storm.writes=*) writes=${token#*=} ;;
    efivar_storm.bytes=*) bytes=${token#*=} ;;
  esac
done
if [ ! -x /bin/efivar_storm ]; then
  echo "BOOTBENCH-ERROR /bin/efivar_storm is not in the image (guest.programs)"; exit 1
fi
if [ ! -d /sys/firmware/efi ]; then
  echo "BOOTBENCH-ERROR no /sys/firmware/efi: the kernel did not boot through UEFI"; exit 1
fi
if ! grep -qw efivarfs /proc/filesystems; then
  if [ ! -f /lib/modules/efivarfs.ko ]; then
    echo "BOOTBENCH-ERROR efivarfs is neither built in nor in /lib/modules (nested.l2_modules)"
    exit 1
  fi
  insmod /lib/modules/efivarfs.ko || exit 1
fi
mount -t efivarfs efivarfs /sys/firmware/efi/efivars || exit 1
# A vendor GUID of bootbench's own.
/bin/efivar_storm --writes "$writes" --bytes "$bytes" \
  --variable /sys/firmware/efi/efivars/BootbenchStorm-5b0c6c62-1f5e-4c4a-9d6e-3f0b7a5e2d11
