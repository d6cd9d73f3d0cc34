#pragma once
// JSON has no NaN or infinity: nlohmann::json would write either as null, which KCIDB's schema
// refuses wherever it asks for a number, so a document is checked before it leaves bootbench.
#include <nlohmann/json.hpp>

namespace bb {

// Throws Error naming the JSON pointer of the first number in `value` that is not finite.
void require_finite_numbers(const nlohmann::json& value);

} // namespace bb
