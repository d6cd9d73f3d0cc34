#include "kcidb/kcidb_status.h"

#include "console/boot_outcome.h"
#include "util/error.h"

#include <fmt/format.h>

namespace bb {

std::string_view kcidb_status(std::string_view outcome, bool params_not_applied) {
    const auto known = boot_outcome_from_string(outcome);
    if (!known) {
        throw Error(fmt::format("a boot's outcome '{}' is not one bootbench knows", outcome));
    }
    switch (*known) {
    case BootOutcome::Ok:
        return params_not_applied ? "ERROR" : "DONE";
    case BootOutcome::Timeout:
    case BootOutcome::Silent:
    case BootOutcome::Panic:
        return "FAIL";
    case BootOutcome::Crash:
        return "ERROR";
    case BootOutcome::InfraError:
        return "MISS";
    }
    return "ERROR"; // unreachable: every enumerator is handled above
}

bool kcidb_status_ran(std::string_view status) {
    return status == "FAIL" || status == "ERROR" || status == "PASS" || status == "DONE";
}

} // namespace bb
