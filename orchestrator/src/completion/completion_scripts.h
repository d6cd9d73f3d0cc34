#pragma once
// The scripts `bootbench completion bash|zsh|fish` prints. Each is a thin shim: it hands the
// words typed so far to `bootbench __complete` (completion.h) and shows what comes back, so the
// three shells complete the same commands, options and values from one definition.
#include <string>
#include <vector>

namespace bb {

const std::vector<std::string>& completion_shells(); // bash, zsh, fish

// The script for `shell`, one of completion_shells() (Error otherwise).
std::string completion_script(const std::string& shell);

} // namespace bb
