#!/usr/bin/env bash
# Issue 32, item 14: Debian replaces linux-source-6.12 without notice (6.12.117 → .118 under
# every shipped result). Every shipped patch series must still apply, in order, to the version
# a fresh machine gets now — the one apt serves, unpacked by the builds before this test.
# Each series is applied for real (GNU patch, which writes new files: the hard-linked copy's
# links break where a patch writes) and taken off again before the next.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BOOTBENCH_CACHE:-/var/cache/bootbench}
version=$(apt-cache policy linux-source-6.12 | awk '/Candidate:/ { print $2 }')
tree=$cache/sources/linux-source-6.12_$version
[ -f "$tree/.bootbench-complete" ] ||
  fail "linux-source-6.12 $version (apt's candidate) is not unpacked in $tree; a build unpacks it"
p=$root/kernels/patches
# A series is a directory's patches in order; srcu/table's 0002 goes on top of srcu/before's 0001.
series_of() { # directory -> its patches, one a line, with the ones it builds on first
  case $1 in
    "$p/srcu/table") echo "$p/srcu/before/0001-srcu-recreate-640a7d37-expedited-delays.patch" ;;
  esac
  ls "$1"/*.patch
}
checked=0
copy=$work/tree
cp -al "$tree" "$copy"
for dir in $(find "$p" -name '*.patch' -printf '%h\n' | sort -u); do
  mapfile -t patches < <(series_of "$dir")
  for patch in "${patches[@]}"; do
    patch -p1 --forward --batch --silent -d "$copy" -i "$patch" >"$work/patch.out" 2>&1 ||
      fail "${patch#"$root"/} does not apply to linux-source-6.12 $version: $(cat "$work/patch.out")"
    checked=$((checked + 1))
  done
  # Taken off again, last first, so the next series starts from the pristine text.
  for ((i = ${#patches[@]} - 1; i >= 0; i--)); do
    patch -p1 -R --batch --silent -d "$copy" -i "${patches[i]}" >/dev/null ||
      fail "${patches[i]#"$root"/} does not reverse cleanly"
  done
done
rm -rf "$work/tree"
[ "$checked" -ge "$(find "$p" -name '*.patch' | wc -l)" ] || fail "only $checked patches applied"
echo "PASS: $checked patch applications on linux-source-6.12 $version"
