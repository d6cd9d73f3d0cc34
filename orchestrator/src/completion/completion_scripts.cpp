#include "completion/completion_scripts.h"

#include "util/error.h"

#include <fmt/format.h>

namespace bb {

namespace {

// bash splits `--format=m` at '=' (COMP_WORDBREAKS): its current word is then "=" or "m" while
// readline replaces only the text after the '='. `compopt -o default` hands a path back to
// readline's file completion (it fails, harmlessly, when the function is called outside
// completion, as the tests do).
constexpr const char* k_bash =
    R"sh(# bash completion for bootbench, printed by `bootbench completion bash`. Install: cmake --install
# puts it in share/bash-completion/completions/bootbench; or: source <(bootbench completion bash)
# The words come from `bootbench __complete`: commands, options, an option's values, and run ids,
# experiment names and build keys from the database the command line names (--db).
_bootbench() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} reply line
  local -a words=("${COMP_WORDS[@]:1:COMP_CWORD}")
  local after_equals=''
  [[ $cur == = || $prev == = ]] && after_equals=1
  [[ $cur == = ]] && words+=('')
  COMPREPLY=()
  reply=$("${COMP_WORDS[0]}" __complete -- "${words[@]}" 2>/dev/null) || return 0
  if [[ ${reply%%$'\n'*} == :files ]]; then
    compopt -o default 2>/dev/null
    return 0
  fi
  [[ $reply == *$'\n'* ]] || return 0
  while IFS= read -r line; do
    line=${line%%$'\t'*}
    [[ -n $after_equals ]] && line=${line#*=}
    COMPREPLY+=("$line")
  done <<<"${reply#*$'\n'}"
}
complete -F _bootbench bootbench
)sh";

// zsh's _describe takes "word:description"; a ':' in the word is escaped.
constexpr const char* k_zsh = R"sh(#compdef bootbench
# zsh completion for bootbench, printed by `bootbench completion zsh`. Install: cmake --install
# puts it in share/zsh/vendor-completions/_bootbench; or, after compinit:
# source <(bootbench completion zsh)
# The words come from `bootbench __complete`: commands, options, an option's values, and run ids,
# experiment names and build keys from the database the command line names (--db).
_bootbench() {
  local reply line
  local -a candidates
  reply=$("${words[1]}" __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  if [[ ${reply%%$'\n'*} == :files ]]; then
    _files
    return
  fi
  for line in "${(@f)reply}"; do
    [[ $line == :words ]] && continue
    candidates+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
  done
  _describe -t values bootbench candidates
}
if [[ $funcstack[1] == _bootbench ]]; then
  _bootbench "$@"
else
  compdef _bootbench bootbench
fi
)sh";

// fish shows "word<TAB>description" as it comes.
constexpr const char* k_fish =
    R"sh(# fish completion for bootbench, printed by `bootbench completion fish`. Install: cmake --install
# puts it in share/fish/vendor_completions.d/bootbench.fish; or: bootbench completion fish | source
# The words come from `bootbench __complete`: commands, options, an option's values, and run ids,
# experiment names and build keys from the database the command line names (--db).
function __bootbench_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l program $words[1]
    set -e words[1]
    set -l reply ($program __complete -- $words "$current" 2>/dev/null)
    or return
    if test "$reply[1]" = :files
        __fish_complete_path "$current"
        return
    end
    set -e reply[1]
    printf '%s\n' $reply
end
complete -c bootbench -f -a '(__bootbench_complete)'
)sh";

} // namespace

const std::vector<std::string>& completion_shells() {
    static const std::vector<std::string> shells{"bash", "zsh", "fish"};
    return shells;
}

std::string completion_script(const std::string& shell) {
    if (shell == "bash") {
        return k_bash;
    }
    if (shell == "zsh") {
        return k_zsh;
    }
    if (shell == "fish") {
        return k_fish;
    }
    throw Error(fmt::format("no completion for the shell '{}' (bash, zsh or fish)", shell));
}

} // namespace bb
