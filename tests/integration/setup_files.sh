#!/usr/bin/env bash
# The man page and the bash completion `cmake --install` installs (orchestrator/CMakeLists.txt):
# installed where man and bash-completion look, generated from the command definitions (every
# command and every option --help lists is in both), the page renders without a groff warning,
# and the completion completes commands and a command's options in a real bash.
source "$(dirname "$0")/lib.sh"
build_dir=$(dirname "$BOOTBENCH")
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null || fail "cmake --install"
page=$work/prefix/share/man/man1/bootbench.1
completion=$work/prefix/share/bash-completion/completions/bootbench
[ -x "$work/prefix/bin/bootbench" ] || fail "no bin/bootbench installed"
[ -s "$page" ] || fail "no man page installed at share/man/man1/bootbench.1"
[ -s "$completion" ] || fail "no completion installed at share/bash-completion/completions"

warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
expect_eq "$warnings" "" "groff warnings on bootbench.1"
rendered=$(groff -man -Tutf8 -P-c "$page" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g')

# Every command of --help, and every option of each command's --help, in both files.
commands=$("$BOOTBENCH" --help | awk '/^Subcommands:/ { on = 1; next } on && NF { print $1 }')
[ "$(wc -w <<<"$commands")" -ge 15 ] || fail "commands read from --help: $commands"
for command in $commands; do
  grep -q "bootbench $command \[OPTIONS\]" <<<"$rendered" || fail "man page lacks $command"
  # The command's own section of the page: from its heading to the next command's.
  section=$(awk -v h="bootbench $command [OPTIONS]" \
    'index($0, h) { on = 1; next } on && /^   bootbench [a-z]+ \[OPTIONS\]/ { exit } on' \
    <<<"$rendered")
  words=$(bash -c "source '$completion'; COMP_WORDS=(bootbench $command --); COMP_CWORD=2; \
    _bootbench; printf '%s\n' \"\${COMPREPLY[@]}\"")
  for option in $("$BOOTBENCH" "$command" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][-a-z]*' |
    grep -oE -- '--[a-z][-a-z]*'); do
    grep -qx -- "$option" <<<"$words" || fail "completion of '$command --' lacks $option"
    grep -qE -- "(^|[ ,])$option( |,|$)" <<<"$section" || fail "man page lacks $command $option"
  done
done

complete_words() { # the words typed so far, the last one being completed
  bash -c "source '$completion'; COMP_WORDS=($*); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); \
    _bootbench; printf '%s\n' \"\${COMPREPLY[@]}\""
}
expect_eq "$(complete_words bootbench rep)" "report
repro" "commands starting with rep"
expect_eq "$(complete_words bootbench --db x.sqlite report --vi)" "--view" \
  "an option after --db VALUE and the command"
expect_eq "$(complete_words bootbench run configs/qu)" "" \
  "a positional is left to bash's file completion"
expect_eq "$(complete_words bootbench --db "''")" "" "--db's value is left to file completion"
expect_eq "$(complete_words bootbench report --view "''")" "" \
  "a command option's value is left to file completion"
# bash splits --db=x into --db, =, x (COMP_WORDBREAKS): x is --db's value, not the command.
expect_eq "$(complete_words bootbench --db = x.sqlite run --sl)" "--slots" \
  "an option after --db=VALUE and the command"
echo "setup files: $(wc -l <"$page") lines of roff, $(wc -w <<<"$commands") commands"
