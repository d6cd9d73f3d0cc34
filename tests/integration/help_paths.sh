#!/usr/bin/env bash
# Every repository path a --help text names exists (a help text once named a patch directory
# that was never there). A path is a word starting with one of the repository's top folders;
# an upper-case placeholder in it (NAME, FILE) stands for any name and is matched as a glob.
# Not checked: db/ (the default database there is made on first use) and the build directory.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tops=$(cd "$root" && find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name db ! -name build \
  -printf '%f|')
tops=${tops%|}
commands=$("$BOOTBENCH" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}')
[ -n "$commands" ] || fail "no subcommands found in bootbench --help"
checked=0
missing=()
for command in "" $commands; do
  # shellcheck disable=SC2086 # an empty command is the top-level help
  help=$("$BOOTBENCH" $command --help) || fail "bootbench $command --help failed"
  while read -r word; do
    [ -n "$word" ] || continue
    pattern=$(sed -E 's/[A-Z][A-Z]+/*/g' <<<"$word")
    checked=$((checked + 1))
    # shellcheck disable=SC2086 # the pattern is meant to glob
    if ! compgen -G "$root/$pattern" >/dev/null; then
      missing+=("bootbench $command --help names $word")
    fi
  done < <(grep -oE "(^|[^[:alnum:]_./-])($tops)/[[:alnum:]_.*/-]*" <<<"$help" |
           sed -E 's/^[^[:alpha:]]//; s/[.,:]+$//' | sort -u)
done
# README.md: every repository path it names exists, and every example that reads shipped data
# (`bootbench --db docs/data/...`) runs as written (its -o into this test's directory).
readme_paths=0
while read -r word; do
  [ -n "$word" ] || continue
  readme_paths=$((readme_paths + 1))
  [ -e "$root/$word" ] || missing+=("README.md names $word")
done < <(grep -oE "(^|[^[:alnum:]_./~-])($tops)/[[:alnum:]_./-]*[[:alnum:]_]" "$root/README.md" |
         sed -E 's/^[^[:alpha:]]//' | grep -v '^db/' | sort -u)
[ "$readme_paths" -ge 10 ] || fail "expected at least 10 paths in README.md, found $readme_paths"
examples=0
while IFS= read -r example; do
  examples=$((examples + 1))
  example=${example//-o phase.html/-o $work/phase.html}
  (cd "$root" && eval "\"\$BOOTBENCH\"${example#bootbench}") > "$work/example.out" 2>&1 ||
    missing+=("README.md example fails: $example: $(tail -2 "$work/example.out")")
done < <(sed -n 's/^    //p' "$root/README.md" | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' |
         grep '^bootbench --db docs/data/' | sed 's/ *#.*$//')
[ "$examples" -ge 3 ] || fail "expected at least 3 README examples on shipped data, found $examples"
[ "${#missing[@]}" -eq 0 ] || fail "paths that do not exist, examples that fail:
$(printf '  %s\n' "${missing[@]}")"
[ "$checked" -ge 5 ] || fail "expected at least 5 paths in the help texts, found $checked"
echo "PASS ($checked paths in help texts, $readme_paths in README.md, $examples README examples run)"
