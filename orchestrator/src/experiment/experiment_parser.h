#pragma once
#include "experiment/experiment.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace bb {

// YAML text → validated Experiment (format: docs/experiments.md). Every problem is an Error
// whose message is "FILE:LINE:COLUMN: MESSAGE", located at the offending node and saying what
// was expected; unknown keys are rejected at every level with a did-you-mean. `file_name` is
// used for messages and its directory anchors the relative paths of the file.
Experiment parse_experiment(std::string_view text, const std::string& file_name);

// Reads `path` and parses it; an unreadable file is an Error naming it.
Experiment load_experiment(const std::filesystem::path& path);

} // namespace bb
