#!/usr/bin/env bash
# The report views and the HTML report end to end: a fresh database created by bootbench
# itself (`bootbench gc --dry-run` on an empty cache migrates it), filled with SYNTHETIC rows by sqlite3 (no kernel is
# booted: two variants × four srcu_max_nodelay_phase values × 5 repeats, deterministic values
# shaped like seeds 000, 002 and 003, one failed and one loaded boot), then every view rendered
# as text and HTML, the HTML opened in headless Debian chromium: --dump-dom must show the SVG
# charts after rendering and --screenshot must produce a PNG; so must `bootbench history`'s
# page (a synthetic nightly database the unit tests write). Fails without chromium (never
# "skipped": scripts/setup.sh installs it). SCREENSHOT_DIR=dir keeps the PNGs.
source "$(dirname "$0")/lib.sh"
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium_bin" ] || fail "chromium is not installed (scripts/setup.sh installs it)"

# gc is a writer (`builds` only reads): it creates and migrates $BOOTBENCH_DB.
BOOTBENCH_CACHE=$work/cache "$BOOTBENCH" gc --dry-run >/dev/null
q <<'SQL'
INSERT INTO hosts (id, fingerprint, hostname, kernel_release, cpu_model, cpus, memory_bytes)
  VALUES (1, 'synthetic', 'synthetic-host', '6.1.0', 'synthetic cpu', 2, 8589934592);
INSERT INTO experiments (id, name, yaml, yaml_sha256)
  VALUES (1, 'synthetic-srcu', 'name: synthetic-srcu', 'synthetic');
INSERT INTO runs (id, experiment_id, host_id, mode, seed, status, command_line, tool_version)
  VALUES (1, 1, 1, 'adhoc', 1, 'done', 'synthetic rows (tests/integration/report_html.sh)', 'test');
WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < 40),
cells AS (
  SELECT i, CASE i % 2 WHEN 0 THEN 'stock' ELSE 'prefix' END AS variant,
         CASE (i / 2) % 4 WHEN 0 THEN 100 WHEN 1 THEN 250 WHEN 2 THEN 1000 ELSE 10000 END AS phase
  FROM seq)
INSERT INTO boots (run_id, cell_key, params_json, repeat_index, arch, machine, smp, memory_mb,
                   kernel_path, kernel_sha256, cmdline, argv_json, accel, accel_reason,
                   foreign_load, outcome, outcome_reason, boot_seconds, wall_seconds,
                   console_bytes, console_tail, started_at)
SELECT 1, 'variant=' || variant || ';srcutree.srcu_max_nodelay_phase=' || phase,
       json_object('variant', variant, 'hz', 250, 'srcutree.srcu_max_nodelay_phase', phase),
       i / 8, 'arm64', 'virt', 1, 256, '/synthetic/Image', 'synthetic', 'quiet', '[]', 'tcg',
       'synthetic', CASE WHEN i = 9 THEN 0.6 ELSE 0.05 END,
       CASE WHEN i = 17 THEN 'timeout' ELSE 'ok' END, 'synthetic',
       CASE phase WHEN 100 THEN 30.0 WHEN 250 THEN 15.7 WHEN 1000 THEN 11.4 ELSE 11.2 END
         * CASE variant WHEN 'prefix' THEN 1.08 ELSE 1.0 END + ((i * 37) % 11 - 5) * 0.05,
       40.0, 1000, 'synthetic', '2024-01-01T00:00:00.000Z'
FROM cells;
-- seed 003's shape: per-application launch times (ms), prefix about 4 % faster.
WITH apps(name, ms) AS (VALUES ('camera', 451), ('browser', 425), ('kindle', 629),
                               ('whatsapp', 311), ('helloworld', 110))
INSERT INTO metrics (boot_id, name, value, unit)
SELECT b.id, 'launch.' || a.name,
       a.ms * CASE json_extract(b.params_json, '$.variant') WHEN 'prefix' THEN 0.96 ELSE 1.0 END
         + (b.id * 7 + length(a.name)) % 9 - 4, 'ms'
FROM boots b, apps a;
-- seed 002's shape: synchronize_rcu() latency buckets of 10000 µs, prefix shifted lower.
WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n + 1 < 14),
centres AS (SELECT id, CASE json_extract(params_json, '$.variant') WHEN 'prefix' THEN 3 ELSE 5 END
              AS c FROM boots)
INSERT INTO histograms (boot_id, name, lo, hi, count)
SELECT centres.id, 'sync_latency_us', n * 10000, n * 10000 + 9999,
       max(0, 400 - 40 * (n - c) * (n - c)) + centres.id % 3
FROM centres, k;
SQL
expect_eq "$(q 'select count(*) from boots')" 40 "synthetic boots"
expect_eq "$(q 'select count(*) from v_samples where used')" 38 "used boots (one failed, one loaded)"

# Text views: the seed shapes (their content, not the fitting to a screen: one line per row).
export COLUMNS=400
param_text=$("$BOOTBENCH" report --view param-table --param srcutree.srcu_max_nodelay_phase --by variant)
echo "$param_text"
expect_eq "$(echo "$param_text" | awk 'NR > 2 && $1 != "trend" { print $1 }' | paste -sd' ')" "100 250 1000 10000" \
  "param-table rows in numeric order"
# Under the table, the trend down each column: both columns fall in the synthetic data.
expect_eq "$(echo "$param_text" | grep -c '^trend down srcutree.srcu_max_nodelay_phase, variant=[a-z]*: J = [0-9.]* (falls: ')" 2 \
  "a falling trend line per column"
hist_text=$("$BOOTBENCH" report --view histogram --hist sync_latency_us --bucket-us 10000 --by variant)
echo "$hist_text"
echo "$hist_text" | has_match '^50000 - 59999 ' || fail "histogram: seed-style bucket label"
echo "$hist_text" | has_match '^p50 shift, variant=prefix − variant=stock: -' ||
  fail "histogram: median shift line"
item_text=$("$BOOTBENCH" report --view per-item --items launch --by variant --base stock)
echo "$item_text"
expect_eq "$(echo "$item_text" | sed -n 3p | awk '{ print $1, $2 }')" "* geomean" \
  "per-item: geometric-mean row first"

# bootbench query: reads, refuses writes.
expect_eq "$("$BOOTBENCH" query --format csv 'select count(*) as n from v_samples where variant = '"'stock'")" \
  "$(printf 'n\n20')" "query csv"
if "$BOOTBENCH" query 'delete from boots' 2> "$work/refused.txt"; then fail "query wrote"; fi
grep -q 'refused' "$work/refused.txt" || fail "query: refusal message: $(cat "$work/refused.txt")"
expect_eq "$(q 'select count(*) from boots')" 40 "boots after a refused delete"

# HTML: one file per view, each opened in chromium.
"$BOOTBENCH" report --by variant --format html -o "$work/grouped.html"
"$BOOTBENCH" report --view param-table --param srcutree.srcu_max_nodelay_phase --by variant \
  --format html -o "$work/param.html"
"$BOOTBENCH" report --view histogram --hist sync_latency_us --bucket-us 10000 --by variant \
  --format html -o "$work/histogram.html"
"$BOOTBENCH" report --view per-item --items launch --by variant --format html -o "$work/items.html"

chromium() { # chromium ARGS... ; stderr (dbus and GPU chatter on a headless box) kept aside
  timeout 120 nice -n 19 "$chromium_bin" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$work")" "$@" 2>> "$work/chromium.log"
}
count() { grep -o "$1" "$2" | wc -l; }
check_dom() { # name svgs min-points min-ci min-bars
  local name=$1 dom=$work/$1.dom.html
  chromium --dump-dom "file://$work/$name.html" > "$dom" ||
    fail "$name: chromium --dump-dom failed: $(tail -5 "$work/chromium.log")"
  [ "$(count '<svg' "$dom")" -ge "$2" ] || fail "$name: expected $2 <svg> in the rendered DOM"
  [ "$(count 'class="bb-point"' "$dom")" -ge "$3" ] || fail "$name: expected $3 points"
  [ "$(count 'class="bb-ci"' "$dom")" -ge "$4" ] || fail "$name: expected $4 CI bars"
  [ "$(count 'class="bb-bar' "$dom")" -ge "$5" ] || fail "$name: expected $5 bars"
  [ "$(count '<script' "$dom")" -eq 0 ] || fail "$name: a script in the page"
  chromium --window-size=1200,1500 --hide-scrollbars --screenshot="$work/$name.png" \
    "file://$work/$name.html" > /dev/null ||
    fail "$name: chromium --screenshot failed: $(tail -5 "$work/chromium.log")"
  [ -s "$work/$name.png" ] || fail "$name: empty screenshot"
  [ "$(head -c 8 "$work/$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "$name: the screenshot is not a PNG"
  echo "$name: $(count '<svg' "$dom") svg, $(count 'class="bb-point"' "$dom") points," \
    "$(count 'class="bb-ci"' "$dom") CI bars, $(count 'class="bb-bar' "$dom") bars," \
    "screenshot $(stat -c %s "$work/$name.png") bytes"
  if [ -n "${SCREENSHOT_DIR:-}" ]; then cp "$work/$name.png" "$work/$name.html" "$SCREENSHOT_DIR/"; fi
}
check_dom grouped 1 2 2 0                    # 2 variants: 2 points with CIs
check_dom param 1 8 0 0                      # 4 phases × 2 variants (5 boots: no 95 % interval)
[ "$(count 'class="bb-ci"' "$work/param.dom.html")" -eq 0 ] || fail "param: a CI whisker below 6 boots"
check_dom histogram 1 0 0 $((2 * 13))        # 2 panels, 13 non-empty buckets at least
check_dom items 1 0 5 6                      # geomean + 5 items, each with a CI
# bootbench history's page over the synthetic nightly database of tests/unit/history_test.cpp:
# 2 cells × 14 nights of 6 boots (every night has its 95 % interval), one shift ringed.
HISTORY_DB=$work/nightly.sqlite "${UNIT_TESTS:?path to unit_tests}" "[history-db]" > /dev/null ||
  fail "unit_tests could not write the nightly database"
"$BOOTBENCH" --db "$work/nightly.sqlite" history quick --html "$work/history.html"
check_dom history 2 28 28 0
[ "$(count 'class="bb-flag"' "$work/history.dom.html")" -eq 1 ] || fail "history: one ringed night"
# Where boot time goes, on SHIPPED databases (copies: a reader of a WAL database leaves -shm
# beside it). seed002-nocb: every boot shows all four moments; its run 1 (pilot) against run 2.
data=$(dirname "$0")/../../docs/data
cp "$data/seed002-nocb.sqlite" "$data/aa-nightly.sqlite" "$work/"
nocb=$work/seed002-nocb.sqlite
phases_text=$("$BOOTBENCH" --db "$nocb" report --view phases --run 2 --by variant)
echo "$phases_text"
expect_eq "$(echo "$phases_text" | grep -cE '^(auto-enable|stock|wake-from-gp) +90 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$')" 3 \
  "phases: a row of five medians per variant"
phases_json=$("$BOOTBENCH" --db "$nocb" report --view phases --run 2 --by variant --format json)
# Each boot's phases add up to its endpoint.
expect_eq "$(jq '[.groups[] | . as $g | range(0; .endpoint.n) as $i |
  ($g.phases | map(.values[$i]) | add) - $g.endpoint.values[$i] | . * . < 1e-18] | all' <<<"$phases_json")" true \
  "phases: a boot's phases add up to its endpoint"
expect_eq "$(jq -r '[.phases[].name] | join(",")' <<<"$phases_json")" "firmware,pre-banner,kernel,init" \
  "phases: the four phases"
attribution=$("$BOOTBENCH" --db "$nocb" -q compare 1 2 --by variant --phases --across-experiments --format json)
expect_eq "$(jq -r '.phases.groups | map(.label + ":" + (.phases | length | tostring)) | join(" ")' <<<"$attribution")" \
  "variant=auto-enable:4 variant=stock:4 variant=wake-from-gp:4" "compare --phases: four phases per group"
expect_eq "$(jq '[.phases.groups[].phases[] | (.excludes_zero == (.difference_ci[0] > 0 or .difference_ci[1] < 0))] | all' <<<"$attribution")" true \
  "compare --phases: excludes_zero agrees with the interval"
"$BOOTBENCH" --db "$nocb" -q compare 1 2 --by variant --phases --across-experiments |
  grep -q '^where the shift goes: per phase' || fail "compare --phases: the text section"
"$BOOTBENCH" --db "$nocb" report --view phases --run 2 --by variant --format html -o "$work/phases.html"
# aa-nightly boots with `quiet`: no banner, no Run /init; only firmware divides, and it says so.
"$BOOTBENCH" --db "$work/aa-nightly.sqlite" history aa-nightly-10x8 --view phases | tee "$work/aa-phases.txt"
grep -q '^kernel: 78 of 78 boots show no banner or no Run /init' "$work/aa-phases.txt" ||
  fail "history --view phases: the quiet boots' note"
"$BOOTBENCH" --db "$work/aa-nightly.sqlite" -q history aa-nightly-10x8 --view phases \
  --html "$work/history-phases.html"
check_dom phases 1 0 0 0
expect_eq "$(count 'class="bb-stack"' "$work/phases.dom.html")" 3 "phases: a stacked bar per variant"
expect_eq "$(count 'class="bb-segment"' "$work/phases.dom.html")" 12 "phases: four segments a bar"
check_dom history-phases 1 0 0 0
expect_eq "$(count 'class="bb-stack"' "$work/history-phases.dom.html")" 10 "history phases: a bar per night"
expect_eq "$(count 'class="bb-total"' "$work/history-phases.dom.html")" 10 "history phases: each night's endpoint"
echo "PASS report_html"
