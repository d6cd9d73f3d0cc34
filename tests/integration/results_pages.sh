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
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
python3 - "$BOOTBENCH" docs/results/*.md <<'PY'
import re, subprocess, sys, shlex
bootbench, pages = sys.argv[1], sys.argv[2:]
checked = failed = 0
for page in pages:
    lines = open(page, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^    \$ (bootbench .*)$", line)
        if not m:
            continue
        try:
            end = lines.index("<!-- end of output -->", i)
        except ValueError:
            print(f"{page}:{i + 1}: a regenerated block without '<!-- end of output -->'")
            failed += 1
            continue
        words = shlex.split(m.group(1))
        markdown = "--format" in words and words[words.index("--format") + 1] == "md"
        block = lines[i + 2:end]  # after the command and one blank line
        if not markdown:
            block = [l[4:] if l.startswith("    ") else l for l in block]
        expected = "\n".join(block).rstrip()
        run = subprocess.run([bootbench] + words[1:], capture_output=True, text=True)
        actual = run.stdout.rstrip()
        checked += 1
        if run.returncode != 0 or actual != expected:
            failed += 1
            print(f"{page}:{i + 1}: `{m.group(1)}` (exit {run.returncode}) prints, "
                  f"where the page has something else:\n{actual}\n{run.stderr}")
print(f"{checked} regenerated block(s) checked, {failed} differ")
sys.exit(1 if failed or checked == 0 else 0)
PY
echo PASS
