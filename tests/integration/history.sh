#!/usr/bin/env bash
# `bootbench history` from the outside, on a SYNTHETIC nightly database (14 nights, two cells;
# variant=delay gains 0001-delay.patch from night 8 on, +5 %) that unit_tests writes through
# the store's own insert API (tests/unit/history_test.cpp, "[history-db]"). Nothing boots.
# Checks the text, --json, --html, the errors' exit status, and that the database is only read.
. "$(dirname "$0")/lib.sh"
UNIT_TESTS=${UNIT_TESTS:?path to the unit_tests binary}
db=$work/nightly.sqlite
HISTORY_DB=$db "$UNIT_TESTS" "[history-db]" >/dev/null || fail "unit_tests could not write $db"
before=$(sha256sum <"$db")
chmod a-w "$db" # a write would fail loudly, not only change the hash

export COLUMNS=100
text=$("$BOOTBENCH" --db "$db" history quick)
echo "$text"
expect_eq "$(grep -c '^cell ' <<<"$text")" 2 "one section per cell"
grep -qx 'cell variant=delay: 14 nights' <<<"$text" || fail "the delay cell's heading"
grep -q '^    8    8  2026-12-08 .* ◆ +5.0 %$' <<<"$text" || fail "night 8 is marked"
grep -qF 'shift at night 8 (run 8, 2026-12-08): ×1.050 [' <<<"$text" || fail "the shift's line"
grep -qx '    patches none → 0001-delay.patch' <<<"$text" || fail "the changed patches"
grep -qx 'change points: none at α = 0.05 over 14 nights' <<<"$text" || fail "stock is flat"
longest=$(while IFS= read -r line; do echo "${#line}"; done <<<"$text" | sort -n | tail -1)
[ "$longest" -le 100 ] || fail "a line of $longest characters at COLUMNS=100"

json=$("$BOOTBENCH" --db "$db" history quick --json)
expect_eq "$(jq -r '[.experiment, .metric, .alpha, (.nights | length)] | @tsv' <<<"$json")" \
  "$(printf 'quick\tboot_seconds\t0.05\t14')" "json: the history"
expect_eq "$(jq -r '.cells[] | select(.cell_key == "variant=delay") | .change_points[] |
  [.night, .run_id, .date, .host_change, ([.changed[].input] | join(","))] | @tsv' <<<"$json")" \
  "$(printf '8\t8\t2026-12-08\tfalse\tbuild key,patches')" "json: the change point"
expect_eq "$(jq '.cells[] | select(.cell_key == "variant=stock") | .change_points | length' \
  <<<"$json")" 0 "json: stock has none"
expect_eq "$(jq '[.cells[0].nights[] | select(.flagged)] | length' <<<"$json")" 1 \
  "json: one flagged night"
expect_eq "$(jq -r '.cells[0].nights[0] | [.n, (.median.low < .median.estimate),
  (.values | length)] | @tsv' <<<"$json")" "$(printf '6\ttrue\t6')" "json: a night's median"
only=$("$BOOTBENCH" --db "$db" history quick --only variant=stock --json)
expect_eq "$(jq -r '[.cells[].cell_key] | join(",")' <<<"$only")" "variant=stock" "--only"

# --html: the page, self-contained (no script, nothing fetched), one chart per cell, the shift's
# night ringed once; nothing on stdout without --json. chromium renders it in report_html.sh.
out=$("$BOOTBENCH" --db "$db" -q history quick --html "$work/history.html")
expect_eq "$out" "" "--html prints nothing"
page=$work/history.html
expect_eq "$(grep -c '<svg' "$page")" 2 "html: a chart per cell"
expect_eq "$(grep -o 'class="bb-flag"' "$page" | wc -l)" 1 "html: one ringed night"
expect_eq "$(grep -o 'class="bb-point"' "$page" | wc -l)" 28 "html: a point per night and cell"
grep -qF 'patches none → 0001-delay.patch' "$page" || fail "html: the change table"
# (the SVG namespace is a name, never fetched)
fetched=$(grep -oiE '<script|https?://[^" ]*|src=' "$page" | grep -vx 'http://www.w3.org/2000/svg' || true)
expect_eq "$fetched" "" "html: self-contained"
both=$("$BOOTBENCH" --db "$db" -q history quick --html "$work/again.html" --json | jq -r .experiment)
expect_eq "$both" quick "--html with --json prints the JSON"
cmp -s "$page" "$work/again.html" || fail "html: two renderings differ"

status_of() { # expected command...: its exit status
  local expected=$1 status=0
  shift
  "$@" >"$work/out" 2>"$work/err" || status=$?
  expect_eq "$status" "$expected" "exit status of $* ($(cat "$work/err"))"
}
status_of 2 "$BOOTBENCH" --db "$db" history nosuch
grep -qF "no experiment 'nosuch'" "$work/err" || fail "unknown experiment: $(cat "$work/err")"
status_of 2 "$BOOTBENCH" --db "$db" history quick --metric nosuch_metric
status_of 2 "$BOOTBENCH" --db "$db" history quick --alpha 2
mkdir "$work/a-directory"
status_of 2 "$BOOTBENCH" --db "$db" history quick --html "$work/a-directory"
"$BOOTBENCH" history --help | has_match 'bootbench history quick --json' || fail "--help examples"
# Markdown (issue 49 item 3): the text's document with headings and tables; the same numbers.
"$BOOTBENCH" --db "$db" history quick --format md >"$work/history.md"
expect_eq "$(head -n 1 "$work/history.md")" "# history of quick: boot_seconds, 14 nightly runs (2026-12-01 … 2026-12-14)" \
  "md: the title"
expect_eq "$(grep -c '^| night | run | date ' "$work/history.md")" 2 "md: a nights table per cell"
text_shift=$("$BOOTBENCH" --db "$db" history quick | grep '^shift at ')
expect_eq "$(grep '^shift at ' "$work/history.md")" "$text_shift" "md: the shift line as in text"
"$BOOTBENCH" --db "$db" history quick --view phases --format md | has_match '^## cell ' ||
  fail "md: phase history's cells"

expect_eq "$(sha256sum <"$db")" "$before" "the database's bytes after history"

# The shipped REAL injected shift (docs/nightly.md, "A real injected shift"; 12 nights, a 1 s
# late initcall from night 7): history finds night 7 alone, names the patch, and puts the shift
# in the kernel phase. The HTML's phase table leaves out the cell and span columns it would
# repeat in every row.
shift_db=$work/shift-nightly.sqlite
cp "$(dirname "$0")/../../docs/data/shift-nightly.sqlite" "$shift_db"
chmod a-w "$shift_db"
shift_json=$("$BOOTBENCH" --db "$shift_db" history shift-nightly --json)
expect_eq "$(jq -r '.cells[0].change_points | map(.night) | join(",")' <<<"$shift_json")" 7 \
  "shift: night 7 alone"
expect_eq "$(jq -r '.cells[0].change_points[0].changed | map(.input) | join(",")' <<<"$shift_json")" \
  "build key,patches" "shift: what changed"
jq -r '.cells[0].change_points[0].changed[1].after' <<<"$shift_json" |
  grep -q '^0001-late-initcall-sleeps-1s.patch ("\[PATCH\]' || fail "shift: the patch's label, unquoted"
expect_eq "$(jq -r '.cells[0].change_points[0].phases.groups[0].carried_by | join(",")' <<<"$shift_json")" \
  kernel "shift: carried by the kernel phase"
"$BOOTBENCH" --db "$shift_db" -q history shift-nightly --html "$work/shift.html"
grep -qF '<th>phase</th><th>n A/B</th>' "$work/shift.html" || fail "shift html: the phase table's columns"
grep -qF '<th>carries</th>' "$work/shift.html" || fail "shift html: the carries column"
# The same shift with every boot traced (docs/results/initcalls.md; 8 + 8 nights of 3 boots):
# the change point names the initcall that carries it, first and moved; the untraced history
# above has no initcall attribution.
expect_eq "$(jq -r '.cells[0].change_points[0].initcalls' <<<"$shift_json")" null \
  "shift: no initcalls without traces"
traced_db=$work/shift-nightly-traced.sqlite
cp "$(dirname "$0")/../../docs/data/shift-nightly-traced.sqlite" "$traced_db"
chmod a-w "$traced_db"
traced_json=$("$BOOTBENCH" --db "$traced_db" history shift-nightly-traced --json)
expect_eq "$(jq -r '.cells[0].change_points | map(.night) | join(",")' <<<"$traced_json")" 9 \
  "traced shift: night 9 alone"
expect_eq "$(jq -r '.cells[0].change_points[0].initcalls.groups[0].initcalls[0] | "\(.name) \(.only_in) \(.moved)"' <<<"$traced_json")" \
  "nightly_shift_delay B true" "traced shift: the carrier, first and moved"
"$BOOTBENCH" --db "$traced_db" history shift-nightly-traced | has_match "^which initcalls carry it" ||
  fail "traced shift: the text names the initcalls"
for suffix in -wal -shm -journal; do
  [ ! -e "$db$suffix" ] || fail "history left $db$suffix"
done
echo "history: text, json, html and errors on a read-only synthetic database"
