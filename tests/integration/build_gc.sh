#!/usr/bin/env bash
# `bootbench gc` on a fake cache (no kernel is built): an idle build loses its artifacts, its
# O= directory and its row; a source tree left without O= directories goes too; a build in use
# keeps everything; a row naming a path outside the cache removes nothing there.
. "$(dirname "$0")/lib.sh"
export BOOTBENCH_CACHE=$work/cache
cache=$BOOTBENCH_CACHE
"$BOOTBENCH" gc --dry-run >/dev/null # creates the schema (gc is a writer; `builds` only reads)

add_build() { # key days-idle artifact-dir [build-dir record]
  mkdir -p "$3"
  echo image >"$3/Image"
  [ -z "${4:-}" ] || echo "$4" >"$3/build-dir"
  q "INSERT INTO builds (key, arch, source_identity, patches_json, base_config, fragments_json,
       config_sha256, toolchain, target, artifact_dir, image_sha256, image_bytes, build_seconds,
       explain, created_at, last_used_at)
     VALUES ('$1', 'arm64', 'test', '[]', 'tinyconfig', '[]', 'c', 't', 'Image', '$3', 'h', 6,
       1, '', strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-$2 days'),
       strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-$2 days'))"
}
tree_a=$cache/trees/aaaaaaaaaaaaaaaa # only the idle build uses it
tree_b=$cache/trees/bbbbbbbbbbbbbbbb # the idle build and the build in use share it
mkdir -p "$tree_a/src" "$tree_a/build-1111111111111111" "$tree_b/src" \
  "$tree_b/build-2222222222222222" "$tree_b/build-3333333333333333"
echo obj >"$tree_a/build-1111111111111111/vmlinux"
# O= directories no row names: an old one (a failed build, or one from before the record) goes,
# with its tree; a recent one (a build that just failed, worth resuming) stays.
tree_c=$cache/trees/cccccccccccccccc
mkdir -p "$tree_c/src" "$tree_c/build-4444444444444444" "$tree_b/build-5555555555555555"
touch -d '40 days ago' "$tree_c/build-4444444444444444"
add_build idle000000000000 40 "$cache/builds/idle000000000000" trees/aaaaaaaaaaaaaaaa/build-1111111111111111
add_build idlb000000000000 40 "$cache/builds/idlb000000000000" trees/bbbbbbbbbbbbbbbb/build-2222222222222222
add_build used000000000000 1 "$cache/builds/used000000000000" trees/bbbbbbbbbbbbbbbb/build-3333333333333333
# A row that names a directory outside the cache (another cache's, or an edited database).
victim=$work/precious
add_build evil000000000000 40 "$victim"
# A record pointing outside the trees is ignored.
add_build escp000000000000 40 "$cache/builds/escp000000000000" ../../precious

"$BOOTBENCH" gc --days 30 --dry-run >"$work/dry.out" 2>&1 || fail "gc --dry-run failed: $(cat "$work/dry.out")"
grep -q "would remove source tree trees/aaaaaaaaaaaaaaaa" "$work/dry.out" ||
  fail "dry run does not list the idle tree: $(cat "$work/dry.out")"
[ -d "$tree_a" ] && [ -d "$cache/builds/idle000000000000" ] || fail "dry run removed something"

"$BOOTBENCH" gc --days 30 >"$work/gc.out" 2>&1 || fail "gc failed: $(cat "$work/gc.out")"
cat "$work/gc.out"
[ ! -e "$cache/builds/idle000000000000" ] || fail "idle artifacts kept"
[ ! -e "$tree_a" ] || fail "the idle build's O= directory and tree were kept (trees/ grows forever)"
[ ! -e "$tree_b/build-2222222222222222" ] || fail "the idle build's O= directory in a shared tree was kept"
[ -d "$tree_b/src" ] && [ -d "$tree_b/build-3333333333333333" ] || fail "the build in use lost its tree"
[ -d "$cache/builds/used000000000000" ] || fail "the build in use lost its artifacts"
[ ! -e "$tree_c" ] || fail "an old O= directory no build names was kept, or its tree"
[ -d "$tree_b/build-5555555555555555" ] || fail "a recent O= directory no build names was removed"
[ -f "$victim/Image" ] || fail "gc removed $victim, outside the cache"
[ ! -e "$cache/builds/escp000000000000" ] || fail "the build with a bad record kept its artifacts"
grep -q "not removing $victim" "$work/gc.out" || fail "no warning about $victim"
expect_eq "$(q "SELECT group_concat(key, ' ') FROM (SELECT key FROM builds ORDER BY key)")" \
  "evil000000000000 used000000000000" "rows left"
echo PASS
