#!/usr/bin/env bash
# The HTML report of every shipped database (docs/data/*.sqlite, real boots), opened in headless
# Debian chromium. A copy of each page gets a measuring script (the page itself carries none):
# after layout it checks that every text of every chart lies inside its chart (nothing clipped)
# and counts the dots drawn for boots; the test compares that count with the used boots the
# database holds for the page's experiment, and the boots the overlaid distributions (ECDF) climb
# through: all of them, or none when the page has one group or more than the chart overlays. Also: no machine path in any page, a verdict section
# when the experiment declared an analysis, no line joining the groups of the grouped chart.
# SCREENSHOT_DIR=dir keeps a screenshot of each page (docs/reporting.md's come from here).
source "$(dirname "$0")/lib.sh"
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium_bin" ] || fail "chromium is not installed (scripts/setup.sh installs it)"
data=$(cd "$(dirname "$0")/../../docs/data" && pwd)

chromium() { # ARGS... ; stderr (dbus and GPU chatter on a headless box) kept aside
  timeout 120 nice -n 19 "$chromium_bin" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$work")" "$@" 2>> "$work/chromium.log"
}

# Appended to a copy of the page: every <text> of every chart must lie within its <svg>'s box
# (1 px of slack for anti-aliasing); the result is written into the DOM for --dump-dom.
measure='<script>
window.addEventListener("load", () => {
  let clipped = [], samples = 0, ecdf = 0;
  for (const svg of document.querySelectorAll("svg.bb-chart")) {
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 ||
          r.bottom > box.bottom + 1) clipped.push(t.textContent);
    }
    samples += svg.querySelectorAll("circle.bb-sample").length;
    for (const p of svg.querySelectorAll("path.bb-ecdf")) ecdf += Number(p.dataset.n);
  }
  const out = document.createElement("pre");
  out.id = "bb-check";
  out.textContent = "samples=" + samples + " ecdf=" + ecdf + " clipped=" + clipped.length + " " +
                    JSON.stringify(clipped.slice(0, 5));
  document.body.appendChild(out);
});
</script>'

pages=0
ecdf_pages=0
for db in "$data"/*.sqlite; do
  name=$(basename "$db" .sqlite)
  page=$work/$name.html
  "$BOOTBENCH" --db "$db" report --format html -o "$page" 2> "$work/$name.err" ||
    fail "$name: report --format html failed: $(cat "$work/$name.err")"
  # The page's experiment: the newest run's (report's default), as the page says.
  experiment=$(sqlite3 -readonly "$db" \
    "select e.name from runs r join experiments e on e.id = r.experiment_id order by r.id desc limit 1")
  used=$(sqlite3 -readonly "$db" \
    "select count(*) from v_samples where used and experiment = '$experiment' and boot_seconds is not null")
  grep -q '/work/\|/home/\|/tmp/\|/var/' "$page" && fail "$name: a machine path in the page"
  grep -q '<polyline class="bb-series"' "$page" && fail "$name: a line joins the groups"
  declared=$(sqlite3 -readonly "$db" \
    "select count(*) from runs r join experiments e on e.id = r.experiment_id
     where e.name = '$experiment' and r.analysis_json is not null")
  if [ "$declared" -gt 0 ]; then
    grep -q 'The declared analysis: run' "$page" || fail "$name: no verdict section"
  fi
  { sed '$d' "$page"; echo "$measure"; echo '</html>'; } > "$work/$name.measured.html"
  chromium --virtual-time-budget=5000 --dump-dom "file://$work/$name.measured.html" \
    > "$work/$name.dom" || fail "$name: chromium --dump-dom failed: $(tail -5 "$work/chromium.log")"
  check=$(sed -n 's/.*<pre id="bb-check">\([^<]*\)<\/pre>.*/\1/p' "$work/$name.dom")
  [ -n "$check" ] || fail "$name: the measuring script did not run"
  echo "$name ($experiment): $check; used boots $used"
  expect_eq "$(sed 's/^samples=\([0-9]*\) .*/\1/' <<<"$check")" "$used" "$name: dots drawn for boots"
  expect_eq "$(sed 's/.* clipped=\([0-9]*\) .*/\1/' <<<"$check")" 0 "$name: texts outside their chart"
  ecdf=$(sed 's/.* ecdf=\([0-9]*\) .*/\1/' <<<"$check")
  [ "$ecdf" = 0 ] || expect_eq "$ecdf" "$used" "$name: boots in the distribution chart"
  [ "$ecdf" = 0 ] || ecdf_pages=$((ecdf_pages + 1))
  if [ -n "${SCREENSHOT_DIR:-}" ]; then
    chromium --window-size=1200,1400 --hide-scrollbars --screenshot="$SCREENSHOT_DIR/$name.png" \
      "file://$page" > /dev/null
  fi
  pages=$((pages + 1))
done
[ "$pages" -ge 5 ] || fail "only $pages shipped databases found in $data"
# seed000-quick's page compares two groups: at least that one overlays their distributions.
[ "$ecdf_pages" -ge 1 ] || fail "no page drew the distribution chart"
echo "PASS report_html_shipped ($pages pages)"
