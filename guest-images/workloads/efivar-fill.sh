# Seed 000's boot-time setup, run once per template by bootbench (artifacts/varstore_template.cpp),
# never in a timed boot: leaves the firmware's variable store full with /bin/efivar_fill
# (guest-images/programs/efivar_fill.c), so that the next boot from a copy of it must reclaim.
#
# Settings from the kernel command line:
#   efivar_fill.live=K   distinct 4 KiB variables left live (default 4)
# Needs efivarfs: built in, or /lib/modules/efivarfs.ko.
live=4
for token in $(cat /proc/cmdline); do
  case "$token" in
    efivar_fill.live=*) live=${token#*=} ;;
  esac
done
if [ ! -d /sys/firmware/efi ]; then
  echo "BOOTBENCH-ERROR no /sys/firmware/efi: the kernel did not boot through UEFI"; exit 1
fi
if ! grep -qw efivarfs /proc/filesystems; then
  insmod /lib/modules/efivarfs.ko || exit 1
fi
mount -t efivarfs efivarfs /sys/firmware/efi/efivars || exit 1
/bin/efivar_fill --live "$live"
