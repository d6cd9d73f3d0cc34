#pragma once
// `bootbench manpage`: bootbench(1) in roff, generated from the command line's own definitions
// (cli_outline.h) — the program's description, every command with its options and its help
// text — so the installed page says what `--help` says. cmake --install puts it in
// share/man/man1/bootbench.1.
#include <CLI/CLI.hpp>
#include <string>

namespace bb {

std::string man_page(const CLI::App& app, const std::string& version);

} // namespace bb
