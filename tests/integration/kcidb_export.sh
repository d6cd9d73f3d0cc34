#!/usr/bin/env bash
# bootbench export --format kcidb (issue 30, item 6; docs/kcidb.md): shipped databases exported
# as KCIDB JSON validate against the published I/O schema v4.5 (orchestrator/data/kcidb/, with its
# provenance) under Debian's python3-jsonschema; a document the schema refuses is refused here
# too (the check can fail); the same data gives the same bytes, also from an `export --format
# sqlite` copy; the source database is not written. Nothing boots.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
schema=$root/orchestrator/data/kcidb/v04_05.schema.json
python3 -c 'import jsonschema' 2>/dev/null ||
  fail "python3 cannot import jsonschema: install Debian's python3-jsonschema (scripts/setup.sh)"

validate() { # document.json -> prints the schema's complaints, exits 1 when there are any
  python3 - "$schema" "$1" <<'PY'
import json, sys
from jsonschema import Draft202012Validator, FormatChecker
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
document = json.load(open(sys.argv[2]))
errors = list(Draft202012Validator(schema, format_checker=FormatChecker()).iter_errors(document))
for error in errors[:10]:
    print("/" + "/".join(str(p) for p in error.absolute_path) + ": " + error.message)
sys.exit(1 if errors else 0)
PY
}
field() { # document.json python-expression-over-d -> its value
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# The A/A nights of docs/nightly.md (runs 9-18: 10 nights x 8 boots of one kernel).
db=$work/aa.sqlite
cp "$root/docs/data/aa-nightly.sqlite" "$db"
before=$(sha256sum <"$db")
runs=()
for run in $(seq 9 18); do runs+=(--run "$run"); done
"$BOOTBENCH" --db "$db" export --format kcidb "${runs[@]}" >"$work/aa.json"
validate "$work/aa.json" || fail "the A/A nights' KCIDB export does not validate"
# (This file is in WAL mode: SQLite makes its -wal and -shm beside it even to read it, as for
# `report`; the database's own bytes stay as they were.)
expect_eq "$(sha256sum <"$db")" "$before" "the database's bytes after export --format kcidb"
expect_eq "$(field "$work/aa.json" 'len(d["tests"])')" \
  "$(sqlite3 "$db" "select count(*) from boots where run_id between 9 and 18")" "tests (one per boot)"
expect_eq "$(field "$work/aa.json" 'len(d["builds"]), len(d["checkouts"])')" "(1, 1)" \
  "builds and checkouts of one kernel from one source"
expect_eq "$(field "$work/aa.json" 'sorted({t["status"] for t in d["tests"]})')" "['DONE']" \
  "statuses of 80 ok boots"
expect_eq "$(field "$work/aa.json" 'round(sum(t["number"]["value"] for t in d["tests"]), 6)')" \
  "$(sqlite3 "$db" "select round(sum(boot_seconds), 6) from boots where run_id between 9 and 18")" \
  "the tests' numbers are the boots' boot_seconds"
expect_eq "$(field "$work/aa.json" '{(t["number"]["unit"], t["number"]["prefix"]) for t in d["tests"]}')" \
  "{('s', 'metric')}" "the number's unit"
expect_eq "$(field "$work/aa.json" 'd["checkouts"][0]["id"]')" \
  "bootbench:debian-package:linux-source-6.12=6.12.118-1~deb12u1" "the checkout: Debian's source"

# The same data, again and from a compact copy: the same bytes.
"$BOOTBENCH" --db "$db" export --format kcidb "${runs[@]}" -o "$work/again.json" >/dev/null
cmp -s "$work/aa.json" "$work/again.json" || fail "a second export of the same runs differs"
"$BOOTBENCH" --db "$db" export "${runs[@]}" -o "$work/copy.sqlite" >/dev/null
"$BOOTBENCH" --db "$work/copy.sqlite" export --format kcidb >"$work/copy.json"
cmp -s "$work/aa.json" "$work/copy.json" || fail "the export of a compact copy differs"

# A timeout and patched kernels (seed 000's efivar pilot, consoles left out when it was shipped):
# FAIL, with the boot time it measured before it hung after the marker, and why.
cp "$root/docs/data/seed000-efivar-pilot.sqlite" "$work/pilot.sqlite"
"$BOOTBENCH" --db "$work/pilot.sqlite" export --format kcidb -o "$work/pilot.json" --json \
  >"$work/pilot-summary.json"
validate "$work/pilot.json" || fail "the efivar pilot's KCIDB export does not validate"
expect_eq "$(field "$work/pilot.json" 'sorted(t["status"] for t in d["tests"])')" \
  "['DONE', 'FAIL']" "an ok boot and a timeout"
expect_eq "$(field "$work/pilot.json" '[(round(t["number"]["value"], 6), t["comment"][:28]) for t in d["tests"] if t["status"] == "FAIL"]')" \
  "[($(sqlite3 "$work/pilot.sqlite" "select round(boot_seconds, 6) from boots where outcome = 'timeout'"), 'timeout: no end within the 1')]" \
  "the timeout's test"
expect_eq "$(field "$work/pilot.json" 'sorted("+patches-" in c["id"] for c in d["checkouts"])')" \
  "[True, True]" "patched sources: checkouts of their own"
expect_eq "$(field "$work/pilot-summary.json" 'd["tests"], d["builds"], d["checkouts"]')" \
  "(2, 2, 2)" "export --json: what was written"

# The check can fail: a status the schema does not know, an id without its origin.
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["tests"][0]["status"] = "OK"
json.dump(d, open(sys.argv[2], "w"))' "$work/aa.json" "$work/bad-status.json"
! validate "$work/bad-status.json" >/dev/null || fail "a status 'OK' passed the schema"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["builds"][0]["id"] = "no-origin"
json.dump(d, open(sys.argv[2], "w"))' "$work/aa.json" "$work/bad-id.json"
! validate "$work/bad-id.json" >/dev/null || fail "an id without its origin passed the schema"

# -o names a new file: an existing one only with --force, never the database itself.
status=0
"$BOOTBENCH" --db "$db" export --format kcidb -o "$work/aa.json" 2>"$work/err" || status=$?
expect_eq "$status" 2 "export --format kcidb onto an existing file"
grep -q "exists: bootbench does not replace a file without --force" "$work/err" ||
  fail "the refusal does not say why: $(cat "$work/err")"
"$BOOTBENCH" --db "$db" export --format kcidb --run 9 -o "$work/aa.json" --force >/dev/null
status=0
"$BOOTBENCH" --db "$db" export --format kcidb -o "$db" --force 2>/dev/null || status=$?
expect_eq "$status" 2 "export --format kcidb onto its own database"
expect_eq "$(sha256sum <"$db")" "$before" "the database after an export onto itself was refused"
echo PASS
