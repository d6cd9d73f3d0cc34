#pragma once
#include "store/boot_record.h"
#include "store/database.h"

#include <optional>
#include <string>

namespace bb {

// One stored sample as a replay needs it: what was booted (each input with its hash), how
// (the recorded qemu argv), and what was measured. `record` holds only the columns a replay
// reads: run, cell, repeat, arch, the inputs, argv, launcher, outcome, boot_seconds, the
// markers, foreign load, start time and the whole filtered console (`console_log`).
struct StoredBoot {
    long long id = 0;
    std::string experiment; // "" for `bootbench boot`
    BootRecord record;
    // False for a boot stored before schema 10, which recorded neither marker: then
    // record.timing_marker and record.start_marker are "" and say nothing (a replay guesses).
    bool markers_recorded = false;
};

// Throws Error when the stored outcome is not one bootbench knows.
std::optional<StoredBoot> find_stored_boot(Database& db, long long boot_id);

} // namespace bb
