#!/usr/bin/env bash
# Installs everything bootbench needs on Debian 12 (run as root), then fetches the guest-side
# artifacts that are not host packages: arm64 busybox-static and Debian's prebuilt cloud kernels
# (used by the integration tests until a kernel of our own is built).
#
# The bookworm-backports suite (for linux-source-6.12) is added from the mirror this machine
# already uses: we read it from the apt configuration rather than naming any host here.
set -euo pipefail

cache=${BOOTBENCH_CACHE:-/var/cache/bootbench}
export DEBIAN_FRONTEND=noninteractive

log() { printf '[setup] %s\n' "$*" >&2; }

mirror_uri() {
  # First URI of a deb822 stanza or one-line entry that serves the plain "bookworm" suite.
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN{RS=""; FS="\n"}
         { uri=""; ok=0
           for (i=1;i<=NF;i++) {
             if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); uri=a[2] }
             if ($i ~ /^Suites:/ && $i ~ /[ \t]bookworm([ \t]|$)/) ok=1 }
           if (ok && uri != "") { print uri; exit } }' "$f"
  done | head -n1
  if [ -f /etc/apt/sources.list ]; then
    awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list
  fi
}

add_suite() {
  local suite=$1 file=/etc/apt/sources.list.d/bootbench-$1.sources uri
  [ -f "$file" ] && return 0
  uri=$(mirror_uri | head -n1)
  if [ -z "$uri" ]; then
    log "cannot find the bookworm mirror in /etc/apt; add $suite by hand"; return 1
  fi
  printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" "$suite" >"$file"
  log "added suite $suite from the machine's own mirror"
}

add_suite bookworm-backports
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  dpkg --add-architecture arm64
fi
apt-get update -qq

packages=(
  # build
  build-essential cmake ninja-build pkg-config ccache clang-format clang-tidy git
  # C++ libraries
  libboost-dev libboost-filesystem-dev libyaml-cpp-dev libsqlitecpp-dev libsqlite3-dev catch2
  libarchive-dev libcli11-dev libfmt-dev libvirt-dev nlohmann-json3-dev zlib1g-dev libssl-dev
  libre2-dev
  # fuzz targets (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-dev
  # guests and firmware
  qemu-system-arm qemu-system-x86 qemu-efi-aarch64 ovmf busybox-static sqlite3 cpio
  # kernel builds (x86_64 native, arm64 cross)
  gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu bc bison flex libelf-dev xz-utils kmod
  # static guest programs (guest.programs): the arm64 cross toolchain needs arm64 libc headers
  libc6-dev-arm64-cross linux-libc-dev-arm64-cross
  # libvirt fleet (daemon and tools)
  libvirt-daemon-system libvirt-clients
  # fleet tests: a loopback TCP proxy to lose a host on purpose
  socat
  # report tests
  chromium
  # export --format kcidb's test validates its JSON against KCIDB's schema (cli.kcidb_export)
  python3-jsonschema
  # the generated man page is rendered with warnings as errors, and the zsh and fish completion
  # scripts run in their shells (cli.setup_files)
  groff-base zsh fish
)
log "installing ${#packages[@]} packages"
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null

# Foreign-arch packages are not co-installable with the host's: unpack them privately.
fetch_unpacked() { # pkg:arch dest
  local pkg=$1 dest=$2 tmp
  [ -d "$dest" ] && return 0
  tmp=$(mktemp -d)
  # apt drops privileges to _apt for downloads; let it write here.
  if id _apt >/dev/null 2>&1; then chown _apt "$tmp"; fi
  (cd "$tmp" && apt-get download -qq "$pkg")
  mkdir -p "$dest.tmp"
  dpkg -x "$tmp"/*.deb "$dest.tmp"
  mv "$dest.tmp" "$dest"
  rm -rf "$tmp"
  log "unpacked $pkg into $dest"
}

mkdir -p "$cache/debs"
fetch_unpacked busybox-static:arm64 "$cache/debs/busybox-static-arm64"

# Debian's prebuilt cloud kernels, the integration tests' stand-in for a kernel of our own.
for arch in amd64 arm64; do
  name=$(apt-cache search --names-only "^linux-image-[0-9.+-]*-cloud-$arch-unsigned\$" |
         awk '{print $1}' | sort -V | tail -n1)
  if [ -z "$name" ]; then log "no cloud kernel package for $arch"; exit 1; fi
  fetch_unpacked "$name:$arch" "$cache/debs/$name"
  ln -sfn "$cache/debs/$name" "$cache/debs/cloud-kernel-$arch"
done
log "done"
