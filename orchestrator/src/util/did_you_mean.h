#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Edit distance with adjacent transpositions (optimal string alignment): insertions,
// deletions, substitutions and swaps of two neighbours each cost one, so the commonest typo,
// two letters swapped ("reprot"), is as close to "report" as a dropped letter is to "repro".
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to a mistyped `word`, when it is close enough to be what the user meant:
// one edit away, two in a word of 5 characters or more, or at most a third of the word's
// length, and never a complete rewrite
// (fewer edits than the word has characters). Ties go to the earlier candidate, so callers list
// candidates in the order they document them.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates);

// " (did you mean 'hz'?)" for an error message, or "" when no candidate is close enough.
std::string did_you_mean_note(std::string_view word, const std::vector<std::string>& candidates);

} // namespace bb
