#pragma once
// A nightly experiment's history as the store holds it: which runs were its nights, and what
// each night booted in each cell (the inputs a shift in boot time may come from). The boots
// themselves are read by select_samples (store/sample_selection.h), as every report reads them.
#include "store/database.h"

#include <string>
#include <vector>

namespace bb {

// One night: a run of mode `nightly` (runs.mode) of the experiment.
struct NightRun {
    long long run_id = 0;
    std::string started_at; // runs.started_at, ISO 8601 UTC
    std::string status;     // done, interrupted or failed (a running night is not one yet)
};

// The experiment's nightly runs that are not still running, in the order they started (run
// id breaks ties). Throws Error for an experiment the database does not hold, naming those
// it does.
std::vector<NightRun> nightly_runs(Database& db, const std::string& experiment);

// What a cell booted on one night, from its used boots (v_samples.used). A part that differed
// between the night's boots lists each value, comma-separated; a part nothing recorded is
// empty.
struct NightInputs {
    long long run_id = 0;
    std::string cell_key;
    std::string build_key; // boots.build_key
    std::string kernel;    // builds.source_identity
    std::string patches;   // builds.patches_json: the patch names, comma-separated
    std::string config;    // builds.config_sha256
    std::string qemu;      // accel_probes.qemu_version: the host's newest probe before the boot
    std::string firmware;  // boots.firmware_name and the first 12 digits of its sha256
    std::string host;      // the boot's host (fleet) or the run's: "name (kernel, cpus × model)"
    // The night's host conditions (util/host_conditions.h), each distinct JSON object in the
    // order first seen; none before schema 12.
    std::vector<std::string> host_conditions;
};

// Every (run, cell) of these runs that has a used boot, by run id and cell key.
std::vector<NightInputs> night_inputs(Database& db, const std::vector<long long>& run_ids);

} // namespace bb
