#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Levenshtein distance (insertions, deletions and substitutions each cost one).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to a mistyped `word`, when it is close enough to be what the user meant:
// at most 2 edits away, or at most a third of the word's length, and never a complete rewrite
// (fewer edits than the word has characters). Ties go to the earlier candidate, so callers list
// candidates in the order they document them.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates);

// " (did you mean 'hz'?)" for an error message, or "" when no candidate is close enough.
std::string did_you_mean_note(std::string_view word, const std::vector<std::string>& candidates);

} // namespace bb
