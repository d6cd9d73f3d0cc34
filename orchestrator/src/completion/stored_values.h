#pragma once
// The values of the kinds completion reads from the database (value_kind.h): run ids with
// their experiment, start and status; experiment names; build keys with what they built.
#include "completion/completion.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bb {

// Opened read-only. Nothing when the database cannot be read (missing, locked, damaged, of
// another schema) or the kind is not one of these: a completion never prints an error.
std::vector<Candidate> stored_values(const std::filesystem::path& db, const std::string& kind);

} // namespace bb
