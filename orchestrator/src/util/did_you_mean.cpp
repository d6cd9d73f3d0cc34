#include "util/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace bb {

size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rows of the dynamic-programming table at a time (the one before the previous for a
    // transposition): keys are short, memory stays O(|b|).
    std::vector<size_t> before(b.size() + 1);
    std::vector<size_t> previous(b.size() + 1);
    std::vector<size_t> row(b.size() + 1);
    std::iota(previous.begin(), previous.end(), size_t{0});
    for (size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({previous[j] + 1, row[j - 1] + 1, substitution});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                row[j] = std::min(row[j], before[j - 2] + 1); // "reprot" is one swap from "report"
            }
        }
        std::swap(before, previous);
        std::swap(previous, row);
    }
    return previous[b.size()];
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
    // A number is not a misspelt word: hz=300 is one edit from 100, and no hint at all.
    if (!word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-';
        })) {
        return std::nullopt;
    }
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
    // One edit, or two in a word of five characters or more, or a third of a longer word: two
    // edits of a three-letter word leave one letter standing ("pdf" is not "md").
    const bool close = best_distance <= 1 || (best_distance == 2 && word.size() >= 5) ||
                       best_distance * 3 <= word.size();
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
