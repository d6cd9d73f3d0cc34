# Shared by the libvirt integration tests and bench/libvirt-overhead: a local libvirtd as root
# without systemd, also listening on loopback TCP, so one machine can play a fleet of hosts.
# Nothing listens beyond 127.0.0.1. Idempotent: an already running daemon is reused.

libvirt_tcp_port=16509

# key = value in a libvirt config file: replaced when present (commented or not), else appended.
libvirt_set_option() { # file key value
  local file=$1 key=$2 value=$3
  if grep -Eq "^#?[[:space:]]*$key[[:space:]]*=" "$file"; then
    sed -i -E "s|^#?[[:space:]]*$key[[:space:]]*=.*|$key = $value|" "$file"
  else
    printf '%s = %s\n' "$key" "$value" >>"$file"
  fi
}

# qemu must run as root: the tests' kernels live under private (0700) temp directories that the
# libvirt-qemu user cannot reach, and libvirt would chown them while the guest runs.
libvirt_start() {
  [ "$(id -u)" = 0 ] || { echo "SKIP: libvirt tests need root" >&2; exit 77; }
  command -v libvirtd >/dev/null || { echo "SKIP: libvirtd not installed (scripts/setup.sh)" >&2; exit 77; }
  local changed=0 conf
  conf=/etc/libvirt/qemu.conf
  if ! grep -q '^user = "root"' $conf || ! grep -q '^group = "root"' $conf; then
    libvirt_set_option $conf user '"root"'
    libvirt_set_option $conf group '"root"'
    changed=1
  fi
  conf=/etc/libvirt/libvirtd.conf
  if ! grep -q '^listen_tcp = 1' $conf || ! grep -q '^listen_addr = "127.0.0.1"' $conf; then
    libvirt_set_option $conf listen_tls 0
    libvirt_set_option $conf listen_tcp 1
    libvirt_set_option $conf listen_addr '"127.0.0.1"'
    libvirt_set_option $conf auth_tcp '"none"'
    changed=1
  fi
  if [ $changed = 1 ] && pgrep -x libvirtd >/dev/null; then
    echo "libvirt_lib: configuration changed, restarting libvirtd" >&2
    kill "$(pgrep -x libvirtd)"
    for _ in $(seq 50); do pgrep -x libvirtd >/dev/null || break; sleep 0.2; done
  fi
  pgrep -x virtlogd >/dev/null || virtlogd -d
  pgrep -x libvirtd >/dev/null || libvirtd -d --listen
  # The first connection probes qemu's capabilities (~14 s, then cached).
  for _ in $(seq 120); do
    virsh -c qemu:///system version >/dev/null 2>&1 &&
      virsh -c "qemu+tcp://127.0.0.1:$libvirt_tcp_port/system" version >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "FAIL: libvirtd did not answer on qemu:///system and tcp port $libvirt_tcp_port" >&2
  exit 1
}
