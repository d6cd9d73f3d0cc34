#pragma once
// One KCIDB v4.5 object each (docs/kcidb.md says which column goes where): a checkout is a
// kernel source with its patches, a build one kernel bootbench built (a `builds` row), a test
// one boot. Only the schema's own fields are written; what it has no field for goes to `misc`.
#include "store/build_store.h"
#include "store/kcidb_rows.h"

#include <nlohmann/json.hpp>

namespace bb {

nlohmann::json kcidb_checkout(const BuildRow& build);
// The checkout of kernels whose source bootbench does not know (kcidb_unknown_checkout_id()).
nlohmann::json kcidb_unknown_checkout();

nlohmann::json kcidb_build(const BuildRow& build);
// A kernel without a `builds` row in the database (`boot --kernel`, or a row deleted since):
// what the boot itself says of it.
nlohmann::json kcidb_unbuilt_build(const KcidbBootRow& boot);

// The boot's test: its status (kcidb/kcidb_status.h), boot_seconds as `number` when the boot
// ran and measured one, every other measurement in `misc`. A measurement that is not finite
// (only a hand-edited database holds one) is left out.
nlohmann::json kcidb_test(const KcidbBootRow& boot);

} // namespace bb
