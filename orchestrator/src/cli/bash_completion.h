#pragma once
// `bootbench completion bash`: a bash completion script generated from the command line's own
// definitions (cli_outline.h). Completes commands, then each command's options; an option's
// value and a positional (an experiment file, a run id) fall back to bash's file completion.
#include <CLI/CLI.hpp>
#include <string>

namespace bb {

std::string bash_completion(const CLI::App& app);

} // namespace bb
