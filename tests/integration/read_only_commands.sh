#!/usr/bin/env bash
# Issue 32, items 2 and 3: every reading command leaves a shipped database byte for byte as it
# was (no WAL switch, no migration, no imported build row — repro used to do all three, even
# when it failed), and export neither rewrites its source nor replaces a file unasked.
# Runs on copies of docs/data/seed003.sqlite; nothing boots.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
db=$work/shipped.sqlite
cp "$root/docs/data/seed003.sqlite" "$db"
before=$(sha256sum <"$db")
boot=$(sqlite3 "$db" "select min(id) from boots")
runs=($(sqlite3 "$db" "select id from runs order by id limit 2"))
reads() { # a reading command's arguments: it may fail, it may not write
  "$BOOTBENCH" --db "$db" "$@" >/dev/null 2>&1 || true
  expect_eq "$(sha256sum <"$db")" "$before" "the database's bytes after: bootbench $*"
  local suffix
  for suffix in -wal -shm -journal; do
    [ ! -e "$db$suffix" ] || fail "bootbench $* left $db$suffix"
  done
}
reads report
reads report --view verdict --run "${runs[0]}"
reads query "select count(*) from boots"
reads compare "${runs[0]}" "${runs[1]}"
reads repro "$boot" -o "$work/boot.sh"
reads repro -5
reads repro 999999
reads export --run "${runs[0]}" -o "$work/exported.sqlite"
reads runs
reads runs --json
reads builds
reads builds --json
reads runs --delete "${runs[0]}"          # without --yes: says what it would delete
reads report --format html -o "$work/page.html"
reads history "$(sqlite3 "$db" "select name from experiments order by id limit 1")"
[ -s "$work/boot.sh" ] || fail "repro of a shipped boot wrote no script"
# compare --phases rendered phase groups that pointed into sets already freed (a heap use after
# free; only the sanitizer build, which runs this test too, aborts on it): the verdict's exit
# status, 1 (B slower), and nothing else.
nightly=$work/shift-nightly.sqlite
cp "$root/docs/data/shift-nightly.sqlite" "$nightly"
for format in text json md; do
  status=0
  "$BOOTBENCH" --db "$nightly" compare 1 12 --phases --format "$format" >/dev/null 2>&1 ||
    status=$?
  expect_eq "$status" 1 "compare 1 12 --phases --format $format: exit status"
done
# A database that does not exist knows no builds; listing them does not create it.
"$BOOTBENCH" --db "$work/none.sqlite" builds >/dev/null || fail "builds on a missing database"
[ ! -e "$work/none.sqlite" ] || fail "builds created the database it was asked to list"
reads repro "$boot" --json

# --json on repro and export (issue 33 item 9): the same facts as the script and the message.
"$BOOTBENCH" --db "$db" repro "$boot" --json >"$work/repro.json"
expect_eq "$(jq -r '.boot_id' "$work/repro.json")" "$boot" "repro --json: the boot"
expect_eq "$(jq -r '.argv[0]' "$work/repro.json")" \
  "$(sqlite3 "$db" "select json_extract(argv_json, '\$[0]') from boots where id = $boot")" \
  "repro --json: the stored argv"
# A shipped database carries no build directory: no recipe, for the reason the script gives.
expect_eq "$(jq -r '.kernel' "$work/repro.json")" null "repro --json: no kernel recipe here"
[ "$(jq -r '.no_kernel_recipe | length' "$work/repro.json")" -gt 80 ] ||
  fail "repro --json: no reason for the missing recipe"
grep -qF "$(jq -r '.no_kernel_recipe' "$work/repro.json" | cut -c22-80)" "$work/boot.sh" ||
  fail "repro --json: the script does not give the reason $(jq -r .no_kernel_recipe "$work/repro.json")"
status=0
"$BOOTBENCH" --db "$db" repro "$boot" --json --run >/dev/null 2>&1 || status=$?
expect_eq "$status" 2 "repro --json --run"
"$BOOTBENCH" --db "$db" export --run "${runs[0]}" -o "$work/exported-json.sqlite" --json \
  >"$work/export.json"
expect_eq "$(jq -r '.runs' "$work/export.json")" 1 "export --json: runs"
expect_eq "$(jq -r '.boots' "$work/export.json")" \
  "$(sqlite3 "$work/exported-json.sqlite" "select count(*) from boots")" "export --json: boots"

# export onto its own source: refused, nothing deleted.
status=0
"$BOOTBENCH" --db "$db" export --run "${runs[0]}" -o "$db" 2>"$work/self.err" || status=$?
expect_eq "$status" 2 "export onto its source"
grep -q "the database this command reads" "$work/self.err" || fail "self export: $(cat "$work/self.err")"
expect_eq "$(sha256sum <"$db")" "$before" "the source after a refused self export"
# onto an existing file: refused without --force, replaced with it.
echo "someone's notes" >"$work/notes.sqlite"
status=0
"$BOOTBENCH" --db "$db" export --run "${runs[0]}" -o "$work/notes.sqlite" 2>"$work/exists.err" || status=$?
expect_eq "$status" 2 "export onto an existing file"
grep -q "exists: bootbench does not replace a file without --force" "$work/exists.err" ||
  fail "existing target: $(cat "$work/exists.err")"
expect_eq "$(cat "$work/notes.sqlite")" "someone's notes" "the existing file after a refusal"
"$BOOTBENCH" --db "$db" export --run "${runs[0]}" -o "$work/notes.sqlite" --force >/dev/null
expect_eq "$(sqlite3 "$work/notes.sqlite" "select count(*) from runs")" 1 "the forced export"
ls "$work" | has_match '\.tmp\.' && fail "export left a temporary file: $(ls "$work")"

# Issue 48 item 1: every command that writes an output file refuses the database it reads (its
# path, a hard link, a symbolic link, its -wal), with --force too, and an existing file without
# --force. On 0376977 history --html, report -o, compare --junit and repro -o replaced it.
ln "$db" "$work/hard-link.sqlite"
ln -s "$db" "$work/soft-link.sqlite"
experiment=$(sqlite3 "$db" "select name from experiments order by id limit 1")
writers=("history $experiment --html" "history $experiment --format json -o"
         "report --format html -o" "compare ${runs[0]} ${runs[1]} --junit"
         "compare ${runs[0]} ${runs[1]} --format csv -o" "repro $boot -o"
         "export --run ${runs[0]} -o" "export --format kcidb -o")
for writer in "${writers[@]}"; do
  for target in "$db" "$work/hard-link.sqlite" "$work/soft-link.sqlite" "$db-wal"; do
    for force in "" --force; do
      status=0
      # shellcheck disable=SC2086 # the writer is a word list
      "$BOOTBENCH" --db "$db" $writer "$target" $force >/dev/null 2>"$work/guard.err" || status=$?
      expect_eq "$status" 2 "bootbench $writer $target $force"
      grep -q "the database this command reads\|only writes regular files" "$work/guard.err" ||
        fail "bootbench $writer $target $force said: $(cat "$work/guard.err")"
      expect_eq "$(sha256sum <"$db")" "$before" "the database after: bootbench $writer $target $force"
      [ ! -e "$db-wal" ] || fail "bootbench $writer $target $force left $db-wal"
    done
  done
  echo "someone's notes" >"$work/notes.txt"
  status=0
  # shellcheck disable=SC2086
  "$BOOTBENCH" --db "$db" $writer "$work/notes.txt" >/dev/null 2>"$work/guard.err" || status=$?
  expect_eq "$status" 2 "bootbench $writer onto an existing file"
  grep -q "exists: bootbench does not replace a file without --force" "$work/guard.err" ||
    fail "bootbench $writer onto an existing file said: $(cat "$work/guard.err")"
  expect_eq "$(cat "$work/notes.txt")" "someone's notes" "the file after: bootbench $writer"
  # With --force the existing file is no obstacle (history of a database without nightlies
  # still fails, for its own reason).
  # shellcheck disable=SC2086
  "$BOOTBENCH" --db "$db" $writer "$work/notes.txt" --force >/dev/null 2>"$work/guard.err" || true
  grep -q "does not replace" "$work/guard.err" && fail "bootbench $writer --force refused the file"
done

# Issue 48 item 11: stored strings reach the terminal shown, never obeyed: an experiment name,
# a cell key and a host name carrying ESC ] (retitle the window), CR and U+202E.
hostile=$work/hostile.sqlite
cp "$root/docs/data/seed003.sqlite" "$hostile"
name=$(sqlite3 "$hostile" "select name from experiments order by id limit 1")
sqlite3 "$hostile" "update experiments set name = name || char(27) || ']0;pwned' || char(7) || char(13) || char(8238);
  update boots set cell_key = cell_key || char(27) || '[2J';
  update hosts set hostname = hostname || char(27) || ']0;host' || char(7)"
for reader in "report" "report --format md" "report --view verdict" "runs" \
              "compare ${runs[0]} ${runs[1]} --across-experiments" "report --by cell"; do
  # shellcheck disable=SC2086
  "$BOOTBENCH" --db "$hostile" $reader >"$work/shown.txt" 2>&1 || true
  if LC_ALL=C grep -q "$(printf '\033')\|$(printf '\r')\|$(printf '\342\200\256')" "$work/shown.txt"; then
    fail "bootbench $reader let a terminal control through: $(cat -v "$work/shown.txt" | head -5)"
  fi
done

# Issue 48 item 10: damaged rows give a clear error or are shown as damaged, never exit 70.
damaged=$work/damaged.sqlite
for argv in garbage '{"a":1}' '[1,2]' '[]'; do
  cp "$root/docs/data/seed003.sqlite" "$damaged"
  sqlite3 "$damaged" "update boots set argv_json = '$argv' where id = $boot"
  status=0
  "$BOOTBENCH" --db "$damaged" repro "$boot" -o "$work/damaged-$status.sh" 2>"$work/damaged.err" || status=$?
  expect_eq "$status" 2 "repro of a boot whose argv_json is $argv ($(cat "$work/damaged.err"))"
  grep -q "boots.argv_json" "$work/damaged.err" || fail "repro with argv_json $argv said: $(cat "$work/damaged.err")"
done
cp "$root/docs/data/seed003.sqlite" "$damaged"
sqlite3 "$damaged" "update builds set patches_json = 'not json',
  source_identity = source_identity || char(255), artifact_dir = '/usr/share/doc'"
for builds in "builds" "builds --json"; do
  status=0
  # shellcheck disable=SC2086
  "$BOOTBENCH" --db "$damaged" $builds >"$work/builds.out" 2>&1 || status=$?
  expect_eq "$status" 0 "bootbench $builds on damaged rows ($(tail -2 "$work/builds.out"))"
done
"$BOOTBENCH" --db "$damaged" builds | has_match "(not cache)" ||
  fail "builds walked an artifact_dir outside the cache: $("$BOOTBENCH" --db "$damaged" builds)"
"$BOOTBENCH" --db "$damaged" builds | has_match "(damaged patch list)" || fail "builds: damaged patch list"

# A WAL database in a directory the reader cannot write (item 9): SQLite cannot make the -shm
# file there; it is read all the same (CI runs as root, the reader is nobody).
shared=$work/shared
mkdir -p "$shared"
cp "$root/docs/data/seed003.sqlite" "$shared/wal.sqlite"
expect_eq "$(sqlite3 "$shared/wal.sqlite" "pragma journal_mode = wal")" wal "the copy's journal mode"
chmod 755 "$work" "$shared"
chmod 644 "$shared/wal.sqlite"
runuser -u nobody -- "$BOOTBENCH" --db "$shared/wal.sqlite" query "select count(*) from boots" \
  >"$work/nobody.out" 2>&1 || fail "a reader who cannot write the directory: $(cat "$work/nobody.out")"
grep -qw "$(sqlite3 "$db" "select count(*) from boots")" "$work/nobody.out" ||
  fail "nobody's query printed: $(cat "$work/nobody.out")"
echo PASS
