#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace bb {

// How a boot ended, in priority order of what the user most needs to know.
//   ok          the timing marker was seen (and the guest finished or was stopped after its end)
//   timeout     the total time limit passed before the end
//   silent      the console said nothing for longer than the silence limit
//   panic       kernel panic / oops / BUG on the console
//   crash       qemu died or exited before the marker (bad firmware, bad kernel, a signal)
//   infra-error bootbench could not run the boot at all (spawn failed, interrupted)
enum class BootOutcome { Ok, Timeout, Silent, Panic, Crash, InfraError };

std::string_view to_string(BootOutcome outcome);
std::optional<BootOutcome> boot_outcome_from_string(std::string_view text);

} // namespace bb
