#include "util/did_you_mean.h"

#include <algorithm>
#include <numeric>

namespace bb {

size_t edit_distance(std::string_view a, std::string_view b) {
    // One row of the dynamic-programming table at a time: keys are short, memory stays O(|b|).
    std::vector<size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), size_t{0});
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            const size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
    std::optional<std::string> best;
    size_t best_distance = 0;
    for (const auto& candidate : candidates) {
        const size_t distance = edit_distance(word, candidate);
        if (!best || distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    if (!best) {
        return std::nullopt;
    }
    const bool close = best_distance <= 2 || best_distance * 3 <= word.size();
    if (!close || best_distance >= word.size()) {
        return std::nullopt;
    }
    return best;
}

std::string did_you_mean_note(std::string_view word, const std::vector<std::string>& candidates) {
    const auto guess = did_you_mean(word, candidates);
    return guess ? " (did you mean '" + *guess + "'?)" : "";
}

} // namespace bb
