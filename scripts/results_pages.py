#!/usr/bin/env python3
"""The regenerated blocks of docs/results/*.md: check them, or write them anew.

A block is a command, one blank line, what it prints, and an end mark:

        $ bootbench report --db docs/data/X.sqlite ... [--format md]

    <the output: indented by four spaces, or raw Markdown with --format md>
    <!-- end of output -->

  results_pages.py check BOOTBENCH PAGE...   exit 1 when a block differs from what its command
                                             prints today (tests/integration/results_pages.sh)
  results_pages.py write BOOTBENCH PAGE...   replace every block with that output (after a new
                                             run is exported to docs/data/)
"""
import re
import shlex
import subprocess
import sys

END = "<!-- end of output -->"
# 0, or 1: a verdict that says slower (README "Exit status") is a result the page shows.
VERDICT_STATUSES = (0, 1)


def blocks(lines):
    """(index of the command line, index of the end mark or None, the command's words)."""
    for i, line in enumerate(lines):
        m = re.match(r"^    \$ (bootbench .*)$", line)
        if m:
            end = lines.index(END, i) if END in lines[i:] else None
            yield i, end, shlex.split(m.group(1))


def is_markdown(words):
    return "--format" in words and words[words.index("--format") + 1] == "md"


def output_of(bootbench, words):
    run = subprocess.run([bootbench] + words[1:], capture_output=True, text=True)
    return run.returncode, run.stdout.rstrip(), run.stderr


def as_block(words, text):
    if is_markdown(words):
        return text.split("\n")
    return [("    " + l) if l else "" for l in text.split("\n")]


def check(bootbench, pages):
    checked = failed = 0
    for page in pages:
        lines = open(page, encoding="utf-8").read().split("\n")
        for i, end, words in blocks(lines):
            if end is None:
                print(f"{page}:{i + 1}: a regenerated block without '{END}'")
                failed += 1
                continue
            block = lines[i + 2:end]
            if not is_markdown(words):
                block = [l[4:] if l.startswith("    ") else l for l in block]
            status, actual, errors = output_of(bootbench, words)
            checked += 1
            if status not in VERDICT_STATUSES or actual != "\n".join(block).rstrip():
                failed += 1
                print(f"{page}:{i + 1}: `{' '.join(words)}` (exit {status}) prints, "
                      f"where the page has something else:\n{actual}\n{errors}")
    print(f"{checked} regenerated block(s) checked, {failed} differ")
    return 1 if failed or checked == 0 else 0


def write(bootbench, pages):
    for page in pages:
        lines = open(page, encoding="utf-8").read().split("\n")
        # From the last block up, so earlier indices stay valid.
        for i, end, words in reversed(list(blocks(lines))):
            if end is None:
                sys.exit(f"{page}:{i + 1}: a regenerated block without '{END}'")
            status, actual, errors = output_of(bootbench, words)
            if status not in VERDICT_STATUSES:
                sys.exit(f"{page}:{i + 1}: `{' '.join(words)}` failed (exit {status}):\n{errors}")
            lines[i + 2:end] = as_block(words, actual)
        open(page, "w", encoding="utf-8").write("\n".join(lines))
        print(f"{page}: regenerated")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "write"):
        sys.exit(__doc__)
    mode, bootbench, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.exit(check(bootbench, pages) if mode == "check" else write(bootbench, pages))
