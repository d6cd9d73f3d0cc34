#pragma once
// A boot's outcome as a KCIDB test status (schema v4.5's `status`; docs/kcidb.md has the table).
#include <string_view>

namespace bb {

// ok → DONE: the boot time is the test's main output, which the schema says is "DONE", not a
// verdict on the code. An ok boot whose kernel parameters did not take → ERROR: it measured
// something other than what was asked, and says nothing of the code. timeout, silent, panic →
// FAIL: the kernel did not boot. crash → ERROR: qemu or the workload died, the kernel's part in
// it is unknown. infra-error → MISS: bootbench could not run the boot (the harness failed).
// Throws Error for an outcome bootbench does not know.
std::string_view kcidb_status(std::string_view outcome, bool params_not_applied);

// Whether a test of this status ran, so its `number` means something (the schema: "FAIL",
// "ERROR", "PASS" or "DONE" only).
bool kcidb_status_ran(std::string_view status);

} // namespace bb
