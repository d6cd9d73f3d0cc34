#include "console/boot_outcome.h"

#include <array>
#include <utility>

namespace bb {

namespace {
constexpr std::array<std::pair<BootOutcome, std::string_view>, 6> k_names{{
    {BootOutcome::Ok, "ok"},
    {BootOutcome::Timeout, "timeout"},
    {BootOutcome::Silent, "silent"},
    {BootOutcome::Panic, "panic"},
    {BootOutcome::Crash, "crash"},
    {BootOutcome::InfraError, "infra-error"},
}};
} // namespace

std::string_view to_string(BootOutcome outcome) {
    for (const auto& [value, name] : k_names) {
        if (value == outcome) {
            return name;
        }
    }
    return "unknown";
}

std::optional<BootOutcome> boot_outcome_from_string(std::string_view text) {
    for (const auto& [value, name] : k_names) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace bb
