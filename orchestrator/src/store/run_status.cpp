#include "store/run_status.h"

#include "util/error.h"

#include <array>
#include <string>
#include <utility>

namespace bb {

namespace {
constexpr std::array<std::pair<RunStatus, std::string_view>, 4> k_words{{
    {RunStatus::Running, "running"},
    {RunStatus::Done, "done"},
    {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Failed, "failed"},
}};
} // namespace

std::string_view to_string(RunStatus status) {
    for (const auto& [value, word] : k_words) {
        if (value == status) {
            return word;
        }
    }
    return "running"; // unreachable: every enumerator has its word
}

RunStatus parse_run_status(std::string_view text) {
    for (const auto& [value, word] : k_words) {
        if (word == text) {
            return value;
        }
    }
    throw Error("unknown run status '" + std::string(text) +
                "' (runs.status holds running, done, interrupted or failed)");
}

} // namespace bb
