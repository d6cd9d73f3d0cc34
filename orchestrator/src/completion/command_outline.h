#pragma once
// The command line as data: every command and option with its names, the kind of value it
// takes and its help line. cli/cli_outline.h reads it from the CLI11 definitions; the man page
// (cli/man_page.h) and shell completion (completion/completion.h) are generated from it, so
// neither can list an option the program does not have or miss one it has.
#include <string>
#include <vector>

namespace bb {

struct OptionOutline {
    std::vector<std::string> names; // "-q", "--quiet"; empty for a positional
    std::string positional;         // the positional's name; empty for an option
    // The value's type name as --help shows it: "TEXT", "INT:POSITIVE", a kind completion knows
    // ("RUN", "EXPERIMENT", "BUILD": value_kind.h) or the values themselves ("text|md|json");
    // empty for a flag.
    std::string value;
    std::string description;
};

struct CommandOutline {
    std::string name;
    std::string description;
    std::string footer; // the command's own help text after its options
    std::vector<OptionOutline> options;
};

} // namespace bb
