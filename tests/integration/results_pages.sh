#!/usr/bin/env bash
# Results pages ship their data (docs/data/*.sqlite, written by `bootbench export`), and every
# block a page marks as regenerated is exactly what its command prints from that data today:
#
#       $ bootbench report --db docs/data/X.sqlite ... [--format md]
#
#   <the command's output: indented by four spaces, or raw Markdown with --format md>
#   <!-- end of output -->
#
# A report change that alters a published figure, or a page edited by hand, fails here.
# `python3 scripts/results_pages.py write build/bootbench docs/results/PAGE.md` rewrites them.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
python3 scripts/results_pages.py check "$BOOTBENCH" docs/results/*.md
echo PASS
