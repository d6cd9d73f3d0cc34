#!/usr/bin/env bash
# The man page and the bash, zsh and fish completion `cmake --install` installs
# (orchestrator/CMakeLists.txt): installed where man, bash-completion, zsh and fish look,
# generated from the command definitions (every command and every option --help lists is in the
# page and completed), the page renders without a groff warning, and each shell's script, run by
# that shell, completes commands, options, an option's values and, from a real database, run ids
# and experiment names, without writing to it.
source "$(dirname "$0")/lib.sh"
build_dir=$(dirname "$BOOTBENCH")
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null || fail "cmake --install"
page=$work/prefix/share/man/man1/bootbench.1
completion=$work/prefix/share/bash-completion/completions/bootbench
zsh_completion=$work/prefix/share/zsh/vendor-completions/_bootbench
fish_completion=$work/prefix/share/fish/vendor_completions.d/bootbench.fish
# The scripts run `bootbench` as the shell would find it: the one just installed.
export PATH=$work/prefix/bin:$PATH
[ -x "$work/prefix/bin/bootbench" ] || fail "no bin/bootbench installed"
[ -s "$page" ] || fail "no man page installed at share/man/man1/bootbench.1"
[ -s "$completion" ] || fail "no completion installed at share/bash-completion/completions"
[ -s "$zsh_completion" ] || fail "no zsh completion installed at share/zsh/vendor-completions"
[ -s "$fish_completion" ] || fail "no fish completion installed at share/fish/vendor_completions.d"

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
expect_eq "$(complete_words bootbench report --view p)" "param-table
per-item
phases" "report's views"
expect_eq "$(complete_words bootbench history x --view "''")" "phases" "history's one view"
expect_eq "$(complete_words bootbench compare 1 2 --format = j)" "json" "a value after --format="
expect_eq "$(complete_words bootbench report -o "''")" "" "-o's value is left to file completion"

# Run ids and experiment names from a real database, which completing never writes to.
db=$work/shift-nightly.sqlite
cp "$(dirname "$0")/../../docs/data/shift-nightly.sqlite" "$db"
before=$(sha256sum <"$db")
expect_eq "$(complete_words bootbench --db "$db" compare "''" | tr '\n' ' ')" \
  "$(sqlite3 "$db" 'SELECT id FROM runs ORDER BY id' | tr '\n' ' ')" "compare's run ids"
expect_eq "$(complete_words bootbench compare 1 1 --db "$db" --run 1 2>&1)" "" \
  "past compare's two run ids"
expect_eq "$(complete_words bootbench report --db "$db" --run 1)" "1
10
11
12" "report --run 1…, --db after the command"
expect_eq "$(complete_words bootbench history --db = "$db" "''")" \
  "$(sqlite3 "$db" 'SELECT DISTINCT name FROM experiments')" "history's experiment names"
expect_eq "$(bootbench --db "$db" __complete -- compare "" | tail -n +2 | wc -l)" 12 \
  "run ids from the database given to __complete itself"
expect_eq "$(sha256sum <"$db")" "$before" "the database after completing from it"
[ ! -e "$db-wal" ] || fail "completing left a WAL file beside the database"
expect_eq "$(complete_words bootbench --db "$work/none.sqlite" compare "''" 2>&1)" "" \
  "run ids of a database that does not exist: nothing, and no error"
[ ! -e "$work/none.sqlite" ] || fail "completing created the database it was asked about"

# bash splits --db=x into --db, =, x (COMP_WORDBREAKS): x is --db's value, not the command.
expect_eq "$(complete_words bootbench --db = x.sqlite run --sl)" "--slots" \
  "an option after --db=VALUE and the command"

# zsh runs its script with stand-ins for its completion system (compdef, _describe and _files
# need an interactive completion context): _describe prints what it was given, "word:help".
zsh_words() { # the words typed so far, the last one being completed
  zsh -f -c 'compdef() { :; }; _files() { print files; }
    _describe() { print -rl -- "${(@P)4}"; }
    source "$1"; shift; words=("$@"); CURRENT=$#; _bootbench' zsh "$zsh_completion" "$@"
}
expect_eq "$(zsh_words bootbench rep)" "report:Summarize stored samples per group (median, 95% CI, …)
repro:Write (or run) a script that rebuilds and replays one stored boot" "zsh: commands"
expect_eq "$(zsh_words bootbench report --format=c)" "--format=csv:" "zsh: --format=VALUE"
expect_eq "$(zsh_words bootbench --db "$db" history '')" "shift-nightly:experiment" \
  "zsh: experiment names"
expect_eq "$(zsh_words bootbench run '')" "files" "zsh: a path"

# fish completes non-interactively: complete -C prints "word<TAB>help" for a command line.
fish_words() { # a command line -> the words fish offers for its last word
  fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$fish_completion" "$1" |
    cut -f1
}
expect_eq "$(fish_words 'bootbench rep')" "report
repro" "fish: commands"
expect_eq "$(fish_words 'bootbench report --view h')" "histogram" "fish: a view"
expect_eq "$(fish_words "bootbench --db $db compare 1 1")" "1
10
11
12" "fish: run ids"
echo "setup files: $(wc -l <"$page") lines of roff, $(wc -w <<<"$commands") commands"
