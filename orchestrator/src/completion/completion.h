#pragma once
// Shell completion, computed by bootbench itself (`bootbench __complete -- WORDS…`) so that bash,
// zsh and fish (completion_scripts.h) offer the same words from one definition, the command
// outline: commands, a command's options, an option's listed values ("text|md|json"), and run
// ids, experiment names and build keys read from the database the command line names.
#include "completion/command_outline.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bb {

struct Candidate {
    std::string word;
    std::string description; // shown by zsh and fish beside the word; may be empty
};

struct Completion {
    std::vector<Candidate> candidates; // those that start with the word being completed
    bool files = false;                // a path (or an unknown kind): the shell's file completion
};

// Values read from the database: the kind (value_kind.h) and the database the command line
// named with --db (nullopt: the default one).
using StoredValues = std::function<std::vector<Candidate>(const std::string& kind,
                                                          const std::optional<std::string>& db)>;

// `words`: what follows the program's name up to the cursor, the last one (perhaps empty) the
// word being completed. bash splits `--db=x` into "--db", "=", "x" (COMP_WORDBREAKS): both
// spellings are read alike; a value completed after `--format=` is offered as `--format=md`.
Completion complete_words(const CommandOutline& program,
                          const std::vector<CommandOutline>& commands,
                          const std::vector<std::string>& words, const StoredValues& stored);

// A word the shells can take as it is: printable ASCII without spaces, quotes, backslashes or
// glob characters. Stored names that are not (a name with an escape sequence or a bidi override)
// are never offered: a completion must not write them onto the command line.
bool plain_word(const std::string& word);

// The lines `__complete` prints: ":files" or ":words", then one "word<TAB>description" each,
// descriptions on one line with control characters replaced.
std::string completion_lines(const Completion& completion);

} // namespace bb
