#!/usr/bin/env bash
# The files bootbench is told to write, end to end through the CLI (no qemu, no chromium):
# `report -o NAME` and `compare --junit NAME` with a bare name write to the current directory;
# an output that is a device node, a FIFO or a symbolic link is refused and left as it was;
# a foreign SQLite file or a symbolic link given as --db is refused before anything is written;
# `query` refuses ATTACH, PRAGMA assignments and BEGIN, and stops a runaway statement.
source "$(dirname "$0")/../integration/lib.sh"

# gc is a writer (`builds` only reads): it creates and migrates $BOOTBENCH_DB.
BOOTBENCH_CACHE=$work/cache "$BOOTBENCH" gc --dry-run >/dev/null
# Two runs of three used boots of one cell: enough for report and compare (synthetic rows).
q <<'SQL'
INSERT INTO hosts (id, fingerprint, hostname, kernel_release, cpu_model, cpus, memory_bytes)
  VALUES (1, 'synthetic', 'synthetic-host', '6.1.0', 'synthetic cpu', 2, 8589934592);
INSERT INTO experiments (id, name, yaml, yaml_sha256) VALUES (1, 'paths', 'name: paths', 'x');
INSERT INTO runs (id, experiment_id, host_id, mode, seed, status, command_line, tool_version)
  VALUES (1, 1, 1, 'adhoc', 1, 'done', 'synthetic', 'test'),
         (2, 1, 1, 'adhoc', 1, 'done', 'synthetic', 'test');
WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < 6)
INSERT INTO boots (run_id, cell_key, params_json, repeat_index, arch, machine, smp, memory_mb,
                   kernel_path, kernel_sha256, cmdline, argv_json, accel, accel_reason,
                   foreign_load, outcome, outcome_reason, boot_seconds, wall_seconds,
                   console_bytes, console_tail, started_at)
SELECT 1 + i / 3, 'variant=stock', json_object('variant', 'stock'), i % 3, 'arm64', 'virt', 1,
       256, '/synthetic/Image', 'x', 'quiet', '[]', 'tcg', 'synthetic', 0.0, 'ok', 'synthetic',
       1.0 + (i % 3) * 0.01, 2.0, 100, 'synthetic', '2024-01-01T00:00:00.000Z'
FROM seq;
SQL

# A bare output name (README: `-o phase.html`) is the current directory.
(cd "$work" && "$BOOTBENCH" -q report --by variant --format html -o phase.html) ||
  fail "report -o phase.html"
[ -s "$work/phase.html" ] || fail "report -o phase.html wrote nothing"
(cd "$work" && "$BOOTBENCH" compare 1 2 --junit compare.xml > /dev/null) ||
  fail "compare --junit compare.xml"
grep -q '<testsuite' "$work/compare.xml" || fail "compare --junit wrote no JUnit"

refused() { # what expected-message command...; the command must fail with exit 2
  local what=$1 expected=$2 status=0
  shift 2
  "$@" > /dev/null 2> "$work/err" || status=$?
  [ "$status" = 2 ] || fail "$what: exit $status, expected 2: $(cat "$work/err")"
  grep -qF -- "$expected" "$work/err" || fail "$what: expected '$expected' in: $(cat "$work/err")"
}

# Outputs that are not regular files: refused, and still what they were.
mkfifo "$work/fifo"
refused "report -o FIFO" "not a regular file" "$BOOTBENCH" report -o "$work/fifo"
[ -p "$work/fifo" ] || fail "report -o replaced a FIFO"
refused "compare --junit FIFO" "not a regular file" "$BOOTBENCH" compare 1 2 --junit "$work/fifo"
[ -p "$work/fifo" ] || fail "compare --junit replaced a FIFO"
echo precious > "$work/victim"
ln -s "$work/victim" "$work/link.html"
refused "report -o LINK" "symbolic link" "$BOOTBENCH" report -o "$work/link.html"
[ -L "$work/link.html" ] && [ "$(cat "$work/victim")" = precious ] || fail "report -o wrote a link"
if [ "$(id -u)" = 0 ]; then # as root, a device node (the issue's `-o /dev/null`), made privately
  mknod "$work/null" c 1 3
  refused "report -o DEVICE" "not a regular file" "$BOOTBENCH" report -o "$work/null"
  [ -c "$work/null" ] || fail "report -o replaced a device node"
fi

# A foreign SQLite file as --db: refused before any write, byte for byte unchanged.
sqlite3 "$work/foreign.sqlite" 'CREATE TABLE accounts (id INTEGER); INSERT INTO accounts VALUES (1);'
before=$(sha256sum < "$work/foreign.sqlite")
refused "--db FOREIGN" "is not a bootbench database" "$BOOTBENCH" --db "$work/foreign.sqlite" \
  gc --dry-run
expect_eq "$(sha256sum < "$work/foreign.sqlite")" "$before" "the foreign database's bytes"
[ ! -e "$work/foreign.sqlite-wal" ] || fail "the foreign database was switched to WAL"

# A symbolic link as --db: refused for writing (its target is not created), followed for reading.
ln -s "$work/created-by-link.sqlite" "$work/dangling.sqlite"
refused "--db LINK" "symbolic link" "$BOOTBENCH" --db "$work/dangling.sqlite" gc --dry-run
[ ! -e "$work/created-by-link.sqlite" ] || fail "--db through a link created its target"
ln -s "$BOOTBENCH_DB" "$work/db-link.sqlite"
"$BOOTBENCH" --db "$work/db-link.sqlite" query "select count(*) from boots" > /dev/null ||
  fail "query through a linked --db"

# query: only reading, bounded in time.
refused "query ATTACH" "query refused: ATTACH is not allowed" \
  "$BOOTBENCH" query "ATTACH DATABASE '$work/attached.sqlite' AS a"
[ ! -e "$work/attached.sqlite" ] || fail "query ATTACH created a file"
refused "query PRAGMA" "query refused: PRAGMA query_only is not allowed" \
  "$BOOTBENCH" query "PRAGMA query_only = OFF"
refused "query BEGIN" "query refused: BEGIN is not allowed" "$BOOTBENCH" query "BEGIN"
refused "query runaway" "query stopped after 0.5 s" "$BOOTBENCH" query --time-limit 0.5 \
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
echo "PASS unsafe_paths"
