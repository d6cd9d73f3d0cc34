# record_build_times DB: appends every kernel build of DB that ran make (a cache hit takes well
# under 5 s) to $BOOTBENCH_BUILD_TIMES, which scripts/stages.sh sets and prints at the end.
record_build_times() {
  [ -n "${BOOTBENCH_BUILD_TIMES:-}" ] && [ -f "$1" ] || return 0
  sqlite3 -batch -noheader -separator ' ' "$1" \
    "select printf('%6.0f s', build_seconds), arch, substr(key, 1, 12), fragments_json, patches_json
     from builds where build_seconds > 5" >>"$BOOTBENCH_BUILD_TIMES" 2>/dev/null || true
}
