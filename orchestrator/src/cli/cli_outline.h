#pragma once
// The command line as data (completion/command_outline.h), read from the CLI11 definitions
// every command registers.
#include "completion/command_outline.h"

#include <CLI/CLI.hpp>
#include <vector>

namespace bb {

// The options of `app` itself that --help lists (hidden ones left out), --help included.
std::vector<OptionOutline> outline_options(const CLI::App& app);
// Every command of `app` that --help lists, in the order they were added (hidden ones, such as
// `__complete`, left out).
std::vector<CommandOutline> outline_commands(const CLI::App& app);

} // namespace bb
