#!/usr/bin/env bash
# Renders a `bootbench report --format html` page to a PNG with headless chromium, as the
# images under docs/results/ were made:
#   bootbench report --run 8 --view histogram --hist sync_rcu_us --format html -o /tmp/r.html
#   bash scripts/report-image.sh /tmp/r.html docs/results/images/rcu-histogram.png [WIDTH,HEIGHT]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 REPORT.html OUT.png [WIDTH,HEIGHT]" >&2; exit 2; }
html=$(realpath "$1")
out=$(realpath -m "$2")
size=${3:-1200,1400}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "$0: chromium is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" \
  --window-size="$size" --hide-scrollbars --screenshot="$out" "file://$html" >/dev/null 2>&1
[ -s "$out" ] || { echo "$0: chromium wrote no image" >&2; exit 1; }
echo "$out"
