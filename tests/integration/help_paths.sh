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
[ "${#missing[@]}" -eq 0 ] || fail "help texts name paths that do not exist:
$(printf '  %s\n' "${missing[@]}")"
[ "$checked" -ge 5 ] || fail "expected at least 5 paths in the help texts, found $checked"
echo "PASS ($checked paths)"
