#pragma once
// Where a boot's endpoint (boot_seconds) starts: at qemu's spawn, or at a start marker (a nested
// boot times L2 from the line `BOOTBENCH-MARKER l2-start`, schema 10's boots.start_marker).
// Only an endpoint timed from the spawn is the sum of the boot's phases (report/boot_phases.h).
#include "store/database.h"

#include <map>
#include <string>
#include <vector>

namespace bb {

// Of these boots, the ones whose endpoint starts at a marker, each with the marker's name.
// Boots stored before schema 10 recorded no start marker (NULL); of those, the nested ones
// were the boots timed from L2's start, named "l2-start (not recorded)".
std::map<long long, std::string> boots_timed_from_a_marker(Database& db,
                                                           const std::vector<long long>& boot_ids);

} // namespace bb
