# Shared by the libvirt integration tests: a private libvirtd for one test, so one machine can
# play a fleet of hosts without touching the machine's own libvirt.
#
# The daemon runs as root (qemu needs it) in a mount namespace of its own, where /etc/libvirt,
# /run, /var/lib/libvirt, /var/cache/libvirt and /var/log/libvirt are directories under the
# test's $work (/run holds only libvirt/ and an empty lock/ for console lock files). Its
# configuration is a copy of the machine's, edited there: qemu as root, TCP on 127.0.0.1 without
# authentication on a free port, no server keepalive. Its sockets, domains, storage pool and
# logs live and die with the test. `libvirt_stop` (also run on exit) destroys its guests, ends
# its processes and checks that the machine's /etc/libvirt is byte for byte what it was.
#
# Everything that talks to it runs inside the namespace, where qemu:///system is the private
# daemon: "$BOOTBENCH" is replaced by a wrapper, and `virsh` is a function doing the same.
# Outside, qemu:///system reaches the machine's daemon (if any), never this one.

libvirt_state= libvirt_pid= libvirt_tcp_port= libvirt_etc_before=

# Paths, modes, owners, sizes, mtimes and contents of /etc/libvirt in one digest.
libvirt_etc_digest() {
  (cd /etc && find libvirt -print0 | sort -z | xargs -0 stat -c '%n %a %u %g %s %Y' &&
    find libvirt -type f -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

# key = value in a libvirt config file: replaced when present (commented or not), else appended.
libvirt_set_option() { # file key value
  local file=$1 key=$2 value=$3
  if grep -Eq "^#?[[:space:]]*$key[[:space:]]*=" "$file"; then
    sed -i -E "s|^#?[[:space:]]*$key[[:space:]]*=.*|$key = $value|" "$file"
  else
    printf '%s = %s\n' "$key" "$value" >>"$file"
  fi
}

libvirt_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs a command in the private daemon's mount namespace.
in_libvirt_ns() { nsenter --target "$libvirt_pid" --mount -- "$@"; }
virsh() { in_libvirt_ns virsh "$@"; }
# Running bootbench domains on the private daemon; no number at all when virsh fails, so a
# check against a count can fail.
libvirt_domain_count() {
  local names
  names=$(virsh -c qemu:///system list --name) || { echo "FAIL: virsh list failed" >&2; return 1; }
  grep -c '^bootbench-' <<<"$names" || true
}

# The private configuration: the machine's, copied. qemu runs as root because the tests' kernels
# live under private (0700) temp directories that libvirt-qemu cannot reach. No network is
# autostarted (a second default network would fight the machine's for virbr0).
libvirt_write_config() {
  local etc=$libvirt_state/etc
  cp -a /etc/libvirt/. "$etc/"
  rm -f "$etc"/qemu/networks/autostart/*
  libvirt_set_option "$etc/qemu.conf" user '"root"'
  libvirt_set_option "$etc/qemu.conf" group '"root"'
  libvirt_set_option "$etc/libvirtd.conf" listen_tls 0
  libvirt_set_option "$etc/libvirtd.conf" listen_tcp 1
  libvirt_set_option "$etc/libvirtd.conf" listen_addr '"127.0.0.1"'
  libvirt_set_option "$etc/libvirtd.conf" tcp_port "\"$libvirt_tcp_port\""
  libvirt_set_option "$etc/libvirtd.conf" auth_tcp '"none"'
  # The daemon never drops a silent client: a test that partitions a "host" (libvirt_fleet.sh)
  # decides when that connection closes, not the daemon's keepalive.
  libvirt_set_option "$etc/libvirtd.conf" keepalive_interval -1
}

libvirt_start() {
  [ "$(id -u)" = 0 ] || { echo "SKIP: libvirt tests need root" >&2; exit 77; }
  command -v libvirtd >/dev/null || { echo "SKIP: libvirtd not installed (scripts/setup.sh)" >&2; exit 77; }
  libvirt_etc_before=$(libvirt_etc_digest)
  libvirt_state=$work/libvirt
  mkdir -p "$libvirt_state"/{etc,run/libvirt,run/lock,lib/images,lib/qemu,cache/qemu,log/qemu,bin}
  libvirt_tcp_port=$(libvirt_free_port)
  libvirt_write_config
  # unshare execs the shell, which execs libvirtd: $! is the daemon. virtlogd is its sibling
  # in the namespace; its pid file lands in the private /run.
  unshare --mount --propagation private -- sh -c '
    s=$1
    mount --bind "$s/etc" /etc/libvirt && mount --bind "$s/run" /run &&
      mount --bind "$s/lib" /var/lib/libvirt && mount --bind "$s/cache" /var/cache/libvirt &&
      mount --bind "$s/log" /var/log/libvirt || exit 1
    virtlogd -d || exit 1
    exec libvirtd --listen' sh "$libvirt_state" >"$libvirt_state/libvirtd.out" 2>&1 &
  libvirt_pid=$!
  trap 'libvirt_stop || true; rm -rf "$work"' EXIT
  local real=$BOOTBENCH
  printf '#!/bin/sh\nexec nsenter --target %s --mount -- %q "$@"\n' "$libvirt_pid" "$real" \
    >"$libvirt_state/bin/bootbench"
  chmod +x "$libvirt_state/bin/bootbench"
  BOOTBENCH=$libvirt_state/bin/bootbench
  # The first connection probes qemu's capabilities (~14 s; the cache is private too).
  for _ in $(seq 240); do
    kill -0 "$libvirt_pid" 2>/dev/null || fail "private libvirtd exited: $(cat "$libvirt_state/libvirtd.out")"
    virsh -c qemu:///system version >/dev/null 2>&1 &&
      virsh -c "qemu+tcp://127.0.0.1:$libvirt_tcp_port/system" version >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  fail "private libvirtd did not answer on qemu:///system and tcp port $libvirt_tcp_port"
}

# Idempotent; returns 1 (the test fails under set -e) when the machine's /etc/libvirt changed.
libvirt_stop() {
  [ -n "$libvirt_pid" ] || return 0
  local pid=$libvirt_pid domain
  if kill -0 "$pid" 2>/dev/null; then
    # libvirtd leaves running guests behind when it ends: destroy them first.
    for domain in $(virsh -c qemu:///system list --name 2>/dev/null); do
      virsh -c qemu:///system destroy "$domain" >/dev/null 2>&1 || true
    done
    local logd
    logd=$(cat "$libvirt_state/run/virtlogd.pid" 2>/dev/null || true)
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    [ -n "$logd" ] && kill "$logd" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
  libvirt_pid=
  local after
  after=$(libvirt_etc_digest)
  if [ "$after" != "$libvirt_etc_before" ]; then
    echo "FAIL: the machine's /etc/libvirt changed during the test" >&2
    return 1
  fi
}
