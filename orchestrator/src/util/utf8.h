#pragma once
// UTF-8 checks for text a user hands bootbench (YAML scalars, run notes and tags).
#include <cstddef>
#include <optional>
#include <string_view>

namespace bb {

// Offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF).
std::optional<size_t> first_invalid_utf8(std::string_view text);
// The length of the well-formed sequence starting at `at` (< text.size()), or nothing.
std::optional<size_t> utf8_sequence_length(std::string_view text, size_t at);

} // namespace bb
