#pragma once
// The command line as data, read from the CLI11 definitions every command registers: what the
// bash completion (bash_completion.h) and the man page (man_page.h) are generated from, so
// neither can list an option the program does not have or miss one it has.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace bb {

struct OptionOutline {
    std::vector<std::string> names; // "-q", "--quiet"; empty for a positional
    std::string positional;         // the positional's name; empty for an option
    std::string value;              // "TEXT", "INT:POSITIVE"; empty for a flag
    std::string description;
};

struct CommandOutline {
    std::string name;
    std::string description;
    std::string footer; // the command's own help text after its options
    std::vector<OptionOutline> options;
};

// The options of `app` itself that --help lists (hidden ones left out), --help included.
std::vector<OptionOutline> outline_options(const CLI::App& app);
// Every command of `app`, in the order they were added.
std::vector<CommandOutline> outline_commands(const CLI::App& app);

} // namespace bb
