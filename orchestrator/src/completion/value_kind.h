#pragma once
// What an option's value is, as far as completion cares, named by the option's type name (the
// word --help and the man page print after it): CLI11's `->type_name(...)` with one of these.
#include <string>
#include <string_view>
#include <vector>

namespace bb {

// Values the database holds, listed when completed: a run id, an experiment's name, a cached
// build's key.
inline constexpr const char* k_run_value = "RUN";
inline constexpr const char* k_experiment_value = "EXPERIMENT";
inline constexpr const char* k_build_value = "BUILD";

// A fixed set of values as a type name: {"text", "md"} → "text|md". --help then shows
// `--format text|md`, and completion offers exactly these. `values` are plain words (no '|',
// ':' or space) without capitals: a type name with one is a kind (TEXT, RUN), not a list.
std::string choice_of(const std::vector<std::string>& values);

// Whether a type name lists values ("text|md", "phases") rather than naming a kind ("TEXT",
// "RUN"): kinds are upper case, values have no capital.
bool lists_values(std::string_view type_name);

} // namespace bb
